/** A one-line progress bar on stderr: `label [#########.........] 45% 9,000 / 20,000  3.1 s`. */
export function progress(label: string, total: number) {
  const started = performance.now();
  const width = 30;
  const tty = process.stderr.isTTY;
  let last = -1;
  const draw = (done: number) => {
    const share = total ? Math.min(1, done / total) : 1;
    const percent = Math.floor(share * 100);
    // Without a terminal, one line per 10% is enough.
    if (!tty && percent !== 100 && Math.floor(percent / 10) === Math.floor(last / 10)) return;
    last = percent;
    const filled = Math.round(share * width);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const line = `${label.padEnd(28)} [${bar}] ${String(percent).padStart(3)}% ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}  ${seconds} s`;
    process.stderr.write(tty ? `\r${line}` : `${line}\n`);
  };
  draw(0);
  return {
    update: draw,
    done() {
      if (last !== 100) draw(total);
      if (tty) process.stderr.write('\n');
    },
  };
}
