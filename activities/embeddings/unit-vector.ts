/**
 * Scales a vector to length 1 in place and returns it (the zero vector stays zero). Cosine search
 * assumes unit vectors, and not every model returns them (llama.cpp's mean pooling, some
 * OpenAI-compatible servers).
 */
export function normaliseInPlace(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  return vector;
}
