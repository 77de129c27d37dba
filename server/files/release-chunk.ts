/**
 * Frees the memory of a chunk of an upload once it is stored, instead of at V8's next full
 * collection.
 *
 * Node's HTTP parser hands every piece of a request body (up to 64 KiB) to JavaScript as a new
 * Buffer whose bytes live outside V8's heap. The small Buffer object dies young, but V8 frees
 * the bytes only when a collection finds the object dead, and at a steady upload nothing but
 * external-memory pressure starts one: every ~64 MB of such garbage a full mark-compact of the
 * whole heap. That garbage is what a large upload added to the server's memory, and those
 * collections were most of its CPU and the pauses of the requests beside it
 * (docs/decisions/167-upload-chunks-freed-once-written.md). Detaching the ArrayBuffer
 * (`transfer(0)`) frees its bytes at once and takes them off V8's external-memory count.
 */

/**
 * Below this a Buffer may be a parser's own small buffer handed out as a view (busboy's
 * look-behind of at most 255 bytes); the socket reads worth freeing are tens of KiB.
 */
const MIN_RELEASED_BYTES = 16 * 1024;

/**
 * Detaches `chunk`'s memory when the chunk is all of its own ArrayBuffer (not a slice of a
 * larger one, not from Node's shared pool of small Buffers) and at least 16 KiB: the caller
 * promises that nothing reads it any more. Anything else is left to the collector.
 */
export function releaseChunk(chunk: Uint8Array): void {
  const { buffer } = chunk;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached || buffer.resizable) return;
  if (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength || chunk.byteLength < MIN_RELEASED_BYTES) return;
  buffer.transfer(0);
}
