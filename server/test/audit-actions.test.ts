import fs from 'node:fs';
import path from 'node:path';
import { CONTRACT_TRANSITIONS } from '@shared/contracts/contract-lifecycle';
import { describe, expect, it } from 'vitest';
import { SUMMARY_RULES } from '../modules/audit/audit-summary';

/**
 * Every audit action the product writes has a sentence (modules/audit/audit-summary.ts, product.md section
 * 17): the server's source is read for the actions it writes (recordAudit / recordAudits entries, the SQL
 * `insert into audit_events` statements, the demo seeding) and compared with the rules' keys. A new action
 * written without a rule fails here, and so does an action written in a form this reader does not know.
 */

const SERVER = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'migrations'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const ACTION = /^[a-z_]+\.[a-z_]+$/;
/**
 * `action: <expression>` (a template literal, or up to the end of the line or the first comma, with a ternary's
 * continuation lines) and `const action = ...;`.
 */
const ACTION_FIELD = /\baction:\s*(`[^`]*`|[^,\n}]+(?:\n\s+[?:][^,\n}]+)*)/g;
const ACTION_CONST = /\bconst action =\s*([^;]+);/g;
/** A SQL insert of audit events: the action is the second value of its select (after the actor). */
const SQL_INSERT = /insert into audit_events\s*\([^)]*\)\s*select\s+[^,]+,\s*'([^']+)'/gi;
const LITERAL = /'([^'\\]+)'/g;

/** Expressions that pass an action through or build it in a known way: what each one writes. */
const KNOWN_FORMS: Record<string, string[]> = {
  // lib/audit.ts writes the entries it is given.
  'entry.action': [],
  // The demo seeding writes its events' actions (their literals are read from the same file).
  'event.action': [],
  // Contract amendments: the settle() helper's union, its literals written by its two callers.
  'amendment.action': [],
  // contract-status writes `contract.<done>` for each transition of the lifecycle table.
  '`contract.${rule.done}`': Object.values(CONTRACT_TRANSITIONS).map((rule) => `contract.${rule.done}`),
};

/**
 * Type annotations (`action: string;`), comments, and a contract's status verbs (`action: 'pause'`, `const action =
 * actionFor(...)`: the status change the contract-status module then audits) are not audit actions.
 */
const NOT_WRITTEN =
  /^(string|ContractAction|ReviewAction|Exclude<|number\)|actionFor\(|the |which |their |a |'[a-z]+'$)/;

type Found = { actions: Map<string, string[]>; unknownForms: string[] };

function writtenActions(): Found {
  const actions = new Map<string, string[]>();
  const unknownForms: string[] = [];
  const add = (action: string, where: string) => actions.set(action, [...(actions.get(action) ?? []), where]);
  for (const file of sourceFiles(SERVER)) {
    const text = fs.readFileSync(file, 'utf8');
    const where = path.relative(SERVER, file);
    const writesAudit = /recordAudits?\(|insert into audit_events|insert\(auditEvents\)/.test(text);
    if (!writesAudit) continue;
    for (const match of text.matchAll(SQL_INSERT)) add(match[1], where);
    for (const match of [...text.matchAll(ACTION_FIELD), ...text.matchAll(ACTION_CONST)]) {
      const expression = match[1].trim();
      const literals = [...expression.matchAll(LITERAL)].map((m) => m[1]).filter((l) => ACTION.test(l));
      for (const literal of literals) add(literal, where);
      if (literals.length > 0 || NOT_WRITTEN.test(expression)) continue;
      const known = KNOWN_FORMS[expression];
      if (known) for (const action of known) add(action, where);
      else if (expression !== 'action') unknownForms.push(`${where}: action: ${expression}`);
    }
  }
  return { actions, unknownForms };
}

describe('audit actions', () => {
  const found = writtenActions();

  it('reads every action from a form it knows', () => {
    expect(found.unknownForms).toEqual([]);
  });

  it('finds the actions the product writes (the reader itself works)', () => {
    // Written by the three kinds of writer: recordAudit, the SQL of the billing run and credit ledger, the
    // status table.
    for (const action of ['payout.approved', 'invoice.issued', 'contract.billing_started', 'contract.resumed']) {
      expect(found.actions.has(action), action).toBe(true);
    }
    expect(found.actions.size).toBeGreaterThan(60);
  });

  it('has a sentence for every action written anywhere', () => {
    const missing = [...found.actions.keys()].filter((action) => !SUMMARY_RULES[action]);
    expect(missing.map((action) => `${action} (${found.actions.get(action)!.join(', ')})`)).toEqual([]);
  });

  it('has no sentence for an action nothing writes', () => {
    expect(Object.keys(SUMMARY_RULES).filter((action) => !found.actions.has(action))).toEqual([]);
  });
});
