import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

function openssl(args: string[], cwd: string): void {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
}

/**
 * A throw-away CA, a server certificate for 127.0.0.1/localhost and a client certificate (P-256
 * keys), written to `dir` as ca.pem, server.pem/.key and client.pem/.key.
 */
export function makeTestCertificates(dir: string): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=decodex test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  const extensions = {
    server: 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature\n',
    client: 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\nkeyUsage=digitalSignature\n',
  };
  for (const [who, ext] of Object.entries(extensions)) {
    openssl(['req', ...ec, '-keyout', `${who}.key`, '-out', `${who}.csr`, '-subj', `/CN=decodex test ${who}`], dir);
    writeFileSync(path.join(dir, `${who}.ext`), ext);
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${who}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${who}.pem`,
        '-days',
        '2',
        '-extfile',
        `${who}.ext`,
      ],
      dir,
    );
  }
}
