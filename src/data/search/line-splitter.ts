// Splits a byte stream into lines with a cap: an over-long line is dropped, not buffered.

/** Returns a feeder that calls `onLine` for each complete line of at most maxLine bytes. */
export function makeLineSplitter(maxLine: number, onLine: (line: string) => void): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false;
  return (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      if (!dropping && size + nl - start <= maxLine) {
        parts.push(chunk.subarray(start, nl));
        onLine(Buffer.concat(parts).toString('utf8'));
      }
      parts = [];
      size = 0;
      dropping = false;
      start = nl + 1;
    }
    if (start < chunk.length && !dropping) {
      parts.push(Buffer.from(chunk.subarray(start)));
      size += chunk.length - start;
      if (size > maxLine) ((dropping = true), (parts = []), (size = 0));
    }
  };
}
