import { createHash } from 'node:crypto';

/**
 * Qdrant accepts only unsigned integers or UUIDs as point ids, while our ids are arbitrary
 * strings ("db.table.column:value"). A name-based UUID (RFC 4122 version 5: SHA-1 of a fixed
 * namespace plus the name) maps each string to the same UUID every time, so upserting an id
 * again replaces the same Qdrant point. The original string travels in the payload.
 */
const DECODEX_NAMESPACE = Buffer.from('6f1c3b52a0e54d5e9a1e2f7d3c8b4a91', 'hex');

export function qdrantPointId(id: string): string {
  const hash = createHash('sha1').update(DECODEX_NAMESPACE).update(id, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
