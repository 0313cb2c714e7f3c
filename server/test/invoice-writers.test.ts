import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One owner per state: the invoices module (its ledger, modules/invoices/invoices.ledger.ts) is the only
 * server code that writes an invoices row: its status, its paid, credited and refunded amounts, the issue
 * of new invoices. Payments, refunds, credit notes and the billing run call the ledger. Migrations, tests
 * and test helpers (which set up rows directly) are outside the rule.
 */

const SERVER = path.resolve(import.meta.dirname, '..');
const OWNER = path.join(SERVER, 'modules', 'invoices');

/** A write of the invoices table: Drizzle's builders or SQL text. */
const WRITES = [
  /\.(?:insert|update|delete)\(\s*invoices\s*\)/g,
  /\bupdate\s+invoices\b/gi,
  /\binsert\s+into\s+invoices\b/gi,
  /\bdelete\s+from\s+invoices\b/gi,
];

function writesIn(text: string): string[] {
  return WRITES.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[0]));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'migrations'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every write of invoices in the server's sources, as "file: the words that write". */
function invoiceWrites(): { file: string; write: string }[] {
  return sourceFiles(SERVER).flatMap((file) =>
    writesIn(fs.readFileSync(file, 'utf8')).map((write) => ({ file: path.relative(SERVER, file), write })),
  );
}

describe('who writes invoices', () => {
  it('recognises writes of the invoices table, and nothing else', () => {
    const cases: [string, string[]][] = [
      ['await tx.update(invoices).set({ status: "paid" })', ['.update(invoices)']],
      ['tx\n    .insert( invoices )\n    .values(row)', ['.insert( invoices )']],
      ['db.delete(invoices).where(x)', ['.delete(invoices)']],
      ['update invoices i set amount_paid_cents = 0', ['update invoices']],
      ['UPDATE  invoices SET status = $1', ['UPDATE  invoices']],
      ['ins as (insert into invoices (number) select 1)', ['insert into invoices']],
      ['delete from invoices where id = $1', ['delete from invoices']],
      ['tx.update(invoiceLines)', []],
      ['insert into invoice_lines (invoice_id) select 1', []],
      ['update invoices_archive set x = 1', []],
      ['select * from invoices i where i.status = $1', []],
      ['tx.select().from(invoices)', []],
    ];
    for (const [text, found] of cases) expect(writesIn(text), text).toEqual(found);
  });

  it('finds the ledger’s own writes, so the scan reads the sources', () => {
    const owned = invoiceWrites().filter((w) => path.join(SERVER, w.file).startsWith(OWNER + path.sep));
    expect(owned.length).toBeGreaterThan(0);
  });

  it('has no writer of invoices outside the invoices module', () => {
    const foreign = invoiceWrites()
      .filter((w) => !path.join(SERVER, w.file).startsWith(OWNER + path.sep))
      .map((w) => `${w.file}: ${w.write}`);
    expect(foreign).toEqual([]);
  });
});
