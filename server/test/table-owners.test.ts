import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../db/schema';

/**
 * One owner per state (docs/architecture.md, "Where things live"). Every table the schema defines has a row
 * here: the part of the server that writes it (inserts, updates, deletes), and every `status` column the part
 * that moves it. A part is a module (`modules/<name>`) or a file outside the modules. Anyone else who writes
 * is a named exception with its reason. A new table joins this list as it is made (the test fails until it
 * does); a write from anywhere else fails with "file: the words that write".
 *
 * Outside the rule: migrations, tests and their helpers (server/test/), which set up rows directly.
 */
type Owner = { owner: string; also?: Record<string, string> };

const DEMO_HISTORY =
  'the demo backdates the history of its contracts (signed months ago, paused last spring): rows the product only writes on the day they happen';

/** Who writes each table's rows, by its SQL name. */
const TABLE_OWNERS: Record<string, Owner> = {
  accounting_exports: { owner: 'modules/accounting' },
  activities: { owner: 'modules/activities' },
  accounting_export_parts: { owner: 'modules/accounting' },
  accounting_export_documents: { owner: 'modules/accounting' },
  api_keys: { owner: 'modules/api-keys' },
  app_settings: { owner: 'modules/settings' },
  audit_events: {
    owner: 'lib/audit.ts',
    also: {
      'modules/billing': 'the billing run audits the invoices it issues in its own set-based statement (decision 011)',
      'modules/credit-notes': 'the billing run’s credit applications are audited in the same set-based statement',
      'demo/seed-contracts.ts': DEMO_HISTORY,
    },
  },
  autopay_attempts: { owner: 'modules/autopay' },
  billing_runs: { owner: 'modules/billing' },
  builtin_charges: { owner: 'modules/autopay' },
  builtin_saved_cards: { owner: 'modules/autopay' },
  checkout_sessions: { owner: 'modules/payments' },
  commissions: { owner: 'modules/commissions' },
  contract_adjustments: {
    owner: 'modules/contracts',
    also: { 'modules/billing': 'the billing run marks the adjustments an invoice carries as billed (decision 022)' },
  },
  contract_line_items: { owner: 'modules/contracts', also: { 'demo/seed-contracts.ts': DEMO_HISTORY } },
  contract_pauses: { owner: 'modules/contract-status', also: { 'demo/seed-billing.ts': DEMO_HISTORY } },
  contracts: {
    owner: 'modules/contracts',
    also: {
      'modules/contract-status': 'a contract’s status and its pause (STATE_OWNERS below)',
      'modules/billing': 'the billing run gives a pay-link contract its token with its first invoice (decision 011)',
      'demo/seed-billing.ts': DEMO_HISTORY,
      'demo/seed-contracts.ts': DEMO_HISTORY,
      'demo/seed-first-refusal.ts': DEMO_HISTORY,
    },
  },
  creatives: { owner: 'modules/creatives' },
  contacts: { owner: 'modules/contacts' },
  credit_notes: { owner: 'modules/credit-notes' },
  deal_lines: { owner: 'modules/deals' },
  deals: { owner: 'modules/deals', also: { 'demo/seed-deals.ts': DEMO_HISTORY } },
  forecast_targets: { owner: 'modules/forecast' },
  // Marks are also written by the triggers of migration 0045 (contracts, lines, insertion orders, deals, stages, settings).
  forecast_marks: { owner: 'modules/forecast' },
  forecast_months: { owner: 'modules/forecast' },
  forecast_sources: { owner: 'modules/forecast' },
  forecast_window: { owner: 'modules/forecast' },
  customer_agencies: { owner: 'modules/customers' },
  agency_statement_runs: { owner: 'modules/customers' },
  customer_credit_entries: { owner: 'modules/credit-notes' },
  customers: {
    owner: 'modules/customers',
    also: {
      'modules/credit-notes': 'the customer’s credit balance is the credit ledger’s (decision 024)',
      'modules/autopay':
        'the customer’s autopay switch, with the methods it depends on, and its Stripe customer for them (decision 057)',
      'demo/seed-catalog.ts': DEMO_HISTORY,
    },
  },
  dunning_steps: { owner: 'modules/dunning' },
  idempotency_keys: { owner: 'plugins/idempotency.repo.ts' },
  insertion_order_events: { owner: 'modules/insertion-orders' },
  insertion_orders: { owner: 'modules/insertion-orders' },
  inventory_holds: { owner: 'modules/inventory' },
  invoice_lines: { owner: 'modules/billing' },
  invoices: { owner: 'modules/invoices' },
  line_deliveries: {
    owner: 'modules/delivery',
    also: { 'modules/billing': 'the billing run opens the delivery period of each CPM line it bills (decision 026)' },
  },
  line_delivery_days: { owner: 'modules/delivery' },
  login_attempts: { owner: 'modules/auth' },
  notification_preferences: { owner: 'modules/settings' },
  notifications: {
    owner: 'lib/notify.ts',
    also: { 'modules/notifications': 'the bell’s routes mark a user’s notifications read' },
  },
  number_series: {
    owner: 'db/number-series.ts',
    also: {
      'modules/billing': 'the billing run takes its invoice numbers in its own set-based statement (decision 023)',
    },
  },
  outbox_emails: {
    owner: 'lib/mailer.ts',
    also: { 'lib/notify.ts': 'a notification’s e-mail copy is queued in the same statement as the notification' },
  },
  package_items: { owner: 'modules/packages', also: { 'demo/seed-catalog.ts': DEMO_HISTORY } },
  packages: { owner: 'modules/packages', also: { 'demo/seed-catalog.ts': DEMO_HISTORY } },
  password_tokens: { owner: 'modules/invitations' },
  payment_method_notices: { owner: 'modules/autopay' },
  payment_methods: { owner: 'modules/autopay' },
  payment_setup_links: { owner: 'modules/autopay' },
  payments: {
    owner: 'modules/payments',
    also: { 'modules/credit-notes': 'a refund of the credit balance is recorded as a payment back (decision 024)' },
  },
  payouts: { owner: 'modules/commissions' },
  pipeline_stages: { owner: 'modules/deals' },
  products: { owner: 'modules/products', also: { 'demo/seed-catalog.ts': DEMO_HISTORY } },
  rate_limit_hits: { owner: 'plugins/rate-limit.repo.ts' },
  renewal_holds: { owner: 'modules/inventory' },
  renewal_notices: { owner: 'modules/contracts' },
  report_book_totals: { owner: 'modules/reports' },
  report_due_totals: { owner: 'modules/reports' },
  report_month_totals: { owner: 'modules/reports' },
  sessions: { owner: 'modules/sessions' },
  users: {
    owner: 'modules/users',
    also: {
      'modules/invitations': 'setting a password from an invitation or a reset link',
      'modules/settings': 'a user’s own profile and password (the Settings screen)',
      'bootstrap.ts': 'the first admin of a new installation (ADMIN_EMAIL)',
      'demo/seed-users.ts': DEMO_HISTORY,
    },
  },
  webhook_deliveries: { owner: 'modules/webhooks' },
  webhook_endpoints: { owner: 'modules/webhooks' },
  webhook_events: { owner: 'modules/webhooks' },
};

/** Who moves each status column ("table.status"): a state change is its owner's conditional update. */
const STATE_OWNERS: Record<string, Owner> = {
  'autopay_attempts.status': { owner: 'modules/autopay' },
  'billing_runs.status': { owner: 'modules/billing' },
  'commissions.status': { owner: 'modules/commissions' },
  'contracts.status': {
    owner: 'modules/contract-status',
    also: { 'demo/seed-billing.ts': DEMO_HISTORY, 'demo/seed-first-refusal.ts': DEMO_HISTORY },
  },
  'checkout_sessions.status': { owner: 'modules/payments' },
  'insertion_orders.status': { owner: 'modules/insertion-orders' },
  'invoices.status': { owner: 'modules/invoices' },
  'outbox_emails.status': { owner: 'lib/mailer.ts' },
  'payment_methods.status': { owner: 'modules/autopay' },
  'payments.status': { owner: 'modules/payments' },
  'payouts.status': { owner: 'modules/commissions' },
  'webhook_deliveries.status': { owner: 'modules/webhooks' },
  'report_book_totals.status': { owner: 'modules/reports' },
};

// --- The scan -------------------------------------------------------------------------------------------------

const SERVER = path.resolve(import.meta.dirname, '..');

/** Every table of the schema: its identifier in TypeScript, its SQL name, whether it has a status column. */
const TABLES = Object.entries(schema as Record<string, unknown>).flatMap(([id, value]) =>
  is(value, PgTable) ? [{ id, name: getTableName(value), hasStatus: 'status' in getTableColumns(value) }] : [],
);

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The writes of one table in a text: Drizzle's builders by identifier, SQL text by name, as the words found. */
function writesOf(text: string, table: { id: string; name: string }): string[] {
  const patterns = [
    new RegExp(`\\.(?:insert|update|delete)\\(\\s*${literal(table.id)}\\s*\\)`, 'g'),
    new RegExp(`\\b(?:update|insert\\s+into|delete\\s+from)\\s+${literal(table.name)}\\b(?!\\.)`, 'gi'),
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[0].replace(/\s+/g, ' ')));
}

/**
 * The writes of a table's status in a text: a Drizzle update whose `.set({ ... })` names `status` (up to the
 * statement's `.where(`), or an SQL update whose set list assigns `status` (up to its where, from or returning).
 */
function statusWritesOf(text: string, table: { id: string; name: string }): string[] {
  const found: string[] = [];
  const builder = new RegExp(
    `\\.update\\(\\s*${literal(table.id)}\\s*\\)\\s*\\.set\\(([\\s\\S]*?)(?:\\.where\\(|\\.returning\\(|;)`,
    'g',
  );
  for (const match of text.matchAll(builder)) {
    if (/[{,]\s*status\s*[:,}]/.test(match[1])) found.push(`.update(${table.id}).set({ status })`);
  }
  const statement = new RegExp(
    `\\bupdate\\s+${literal(table.name)}\\b(?:\\s+(?:as\\s+)?\\w+)?\\s+set\\b([\\s\\S]*?)(?:\\bwhere\\b|\\bfrom\\b|\\breturning\\b|;|\`)`,
    'gi',
  );
  for (const match of text.matchAll(statement)) {
    if (/(?:^|,)\s*status\s*=/.test(match[1])) found.push(`update ${table.name} set status`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'migrations'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The part a file belongs to: its module's folder, or the file itself outside the modules. */
function partOf(file: string): string {
  const relative = path.relative(SERVER, file).split(path.sep);
  return relative[0] === 'modules' ? `modules/${relative[1]}` : relative.join('/');
}

const SOURCES = sourceFiles(SERVER).map((file) => ({
  file: path.relative(SERVER, file).split(path.sep).join('/'),
  part: partOf(file),
  text: fs.readFileSync(file, 'utf8'),
}));

type Write = { file: string; part: string; write: string; key: string };

function scan(detect: (text: string, table: (typeof TABLES)[number]) => string[], key: (name: string) => string) {
  return SOURCES.flatMap((source) =>
    TABLES.flatMap((table) =>
      detect(source.text, table).map((write) => ({
        file: source.file,
        part: source.part,
        write,
        key: key(table.name),
      })),
    ),
  );
}

const tableWrites: Write[] = scan(writesOf, (name) => name);
const statusWrites: Write[] = scan(
  (text, table) => (table.hasStatus ? statusWritesOf(text, table) : []),
  (name) => `${name}.status`,
);

const isAllowed = (owners: Record<string, Owner>, write: Write) => {
  const rule = owners[write.key];
  return rule !== undefined && (write.part === rule.owner || (rule.also !== undefined && write.part in rule.also));
};
const foreign = (owners: Record<string, Owner>, writes: Write[]) =>
  writes.filter((write) => !isAllowed(owners, write)).map((write) => `${write.key}: ${write.file}: ${write.write}`);

describe('who writes each table', () => {
  it('recognises the writes of a table and of its status, and nothing else', () => {
    const invoices = { id: 'invoices', name: 'invoices' };
    const writes: [string, string[]][] = [
      ['await tx.update(invoices).set({ amountPaidCents: 0 })', ['.update(invoices)']],
      ['tx\n    .insert( invoices )\n    .values(row)', ['.insert( invoices )']],
      ['db.delete(invoices).where(x)', ['.delete(invoices)']],
      ['update invoices i set amount_paid_cents = 0', ['update invoices']],
      ['UPDATE  invoices SET status = $1', ['UPDATE invoices']],
      ['ins as (insert into invoices (number) select 1)', ['insert into invoices']],
      ['delete from invoices where id = $1', ['delete from invoices']],
      ['tx.update(invoiceLines)', []],
      ['insert into invoice_lines (invoice_id) select 1', []],
      ['update invoices_archive set x = 1', []],
      ['select * from invoices i where i.status = $1', []],
      ['tx.select().from(invoices)', []],
    ];
    for (const [text, found] of writes) expect(writesOf(text, invoices), text).toEqual(found);

    const contracts = { id: 'contracts', name: 'contracts' };
    const statuses: [string, string[]][] = [
      [
        "tx.update(contracts).set({ status: 'active' }).where(eq(contracts.id, id))",
        ['.update(contracts).set({ status })'],
      ],
      [
        'tx\n  .update(contracts)\n  .set({ pauseReason: null, status })\n  .where(x)',
        ['.update(contracts).set({ status })'],
      ],
      [
        "update contracts c set status = 'paused', pause_reason = 'manual' where c.id = $1",
        ['update contracts set status'],
      ],
      [
        'update contracts\n  set updated_at = now(),\n      status = $2\n where id = $1',
        ['update contracts set status'],
      ],
      // Other columns, or status only read: not a status write.
      ['tx.update(contracts).set({ payLinkToken: token }).where(eq(contracts.status, "sent"))', []],
      ["update contracts c set pay_link_token = case when c.status = 'sent' then 'x' end where c.id = $1", []],
      ['tx.update(contracts).set({ ...values, updatedAt: new Date() }).where(eq(contracts.id, id))', []],
      ["update contract_pauses set status = 'x'", []],
    ];
    for (const [text, found] of statuses) expect(statusWritesOf(text, contracts), text).toEqual(found);
  });

  it('lists every table of the schema, and only those', () => {
    const names = TABLES.map((table) => table.name).sort();
    expect(names.length).toBeGreaterThan(40);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(names);
    const withStatus = TABLES.filter((table) => table.hasStatus).map((table) => `${table.name}.status`);
    expect(Object.keys(STATE_OWNERS).sort()).toEqual(withStatus.sort());
  });

  it('finds the owners’ own writes, so the scan reads the sources', () => {
    const parts = (key: string, writes: Write[]) => new Set(writes.filter((w) => w.key === key).map((w) => w.part));
    expect(parts('invoices', tableWrites)).toContain('modules/invoices');
    expect(parts('insertion_orders', tableWrites)).toContain('modules/insertion-orders');
    // The status writer moves a contract with one conditional update of what its allowed-from table says.
    expect(parts('contracts', tableWrites)).toContain('modules/contract-status');
    expect(parts('invoices.status', statusWrites)).toContain('modules/invoices');
    // Every row names a part that writes: an owner that wrote nothing would be a stale row.
    for (const [name, rule] of Object.entries(TABLE_OWNERS)) {
      expect(parts(name, tableWrites), name).toContain(rule.owner);
    }
  });

  it('has no writer of a table outside its owner and the named exceptions', () => {
    expect(foreign(TABLE_OWNERS, tableWrites)).toEqual([]);
  });

  it('has no writer of a status outside its owner and the named exceptions', () => {
    expect(foreign(STATE_OWNERS, statusWrites)).toEqual([]);
  });
});
