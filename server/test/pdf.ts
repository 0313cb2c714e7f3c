import { inflateSync } from 'node:zlib';

/**
 * The text pdfkit drew on a PDF's pages, as a reader would search it: each content stream read by its
 * declared /Length (compressed bytes may themselves end in a carriage return, which a search for the closing
 * "endstream" would take for the line break before it), inflated when compressed, and the hex strings of its
 * TJ arrays decoded (WinAnsi, the standard fonts' encoding). With `withRaw`, the raw file too (its info strings: title, author).
 */
/** The standard fonts' WinAnsi encoding: Latin-1, but for the punctuation at 0x80-0x9F (dashes, quotes, bullet). */
const WIN_ANSI: Record<number, string> = {
  128: '€',
  133: '…',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
  153: '™',
};
const winAnsi = (bytes: Buffer) => [...bytes].map((b) => WIN_ANSI[b] ?? String.fromCharCode(b)).join('');

/** The text with every run of white space (a wrapped line's break included) as one space. */
export const flatText = (text: string) => text.replace(/\s+/g, ' ');

export function pdfText(bytes: Buffer, options: { withRaw?: boolean } = {}): string {
  const raw = bytes.toString('latin1');
  const parts: string[] = options.withRaw ? [raw] : [];
  const streams = /\/Length (\d+)[^>]*>>\s*stream\r?\n/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    const start = m.index + m[0].length;
    const data = bytes.subarray(start, start + Number(m[1]));
    let text: string;
    try {
      text = inflateSync(data).toString('latin1');
    } catch {
      text = data.toString('latin1');
    }
    // pdfkit writes text as hex strings inside TJ arrays: [<494e56> 30 <2d32> 0] TJ
    for (const tj of text.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      parts.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => winAnsi(Buffer.from(h[1], 'hex'))).join(''));
    }
  }
  return parts.join('\n');
}
