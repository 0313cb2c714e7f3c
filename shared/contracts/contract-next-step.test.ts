import { describe, expect, it } from 'vitest';
import {
  type ContractNextStep,
  clientNextStepDetail,
  clientNextStepTitle,
  contractNextStep,
  staffNextStepDetail,
  staffNextStepTitle,
} from './contract-next-step';

/** The rule and its words, as a table worked by hand (product.md section 17). */

const day = (value: string) => ({ '2026-12-15': 'Dec 15, 2026', '2026-03-10': 'Mar 10, 2026' })[value] ?? value;

describe('contractNextStep', () => {
  const base = { firstInvoiceDate: '2026-12-15', today: '2026-03-10' };
  it.each([
    ['sent', 'portal', 'accepted', { kind: 'activation', signed: true, firstInvoiceOn: '2026-12-15' }],
    ['sent', 'pay_link', 'accepted', { kind: 'first_payment', signed: true, firstInvoiceOn: '2026-12-15' }],
    ['sent', 'portal', null, { kind: 'activation', signed: false, firstInvoiceOn: '2026-12-15' }],
    ['sent', 'pay_link', null, { kind: 'first_payment', signed: false, firstInvoiceOn: '2026-12-15' }],
    ['sent', 'portal', 'sent', null],
    ['sent', 'portal', 'declined', null],
    ['sent', 'pay_link', 'superseded', null],
    ['draft', 'portal', null, null],
    ['active', 'portal', 'accepted', null],
    ['paused', 'pay_link', 'accepted', null],
  ] as const)('%s, %s, insertion order %s', (status, paymentMode, io, expected) => {
    expect(contractNextStep({ ...base, status, paymentMode, insertionOrderStatus: io })).toEqual(expected);
  });

  it('a first invoice date already past is today (it is issued on activation or payment)', () => {
    expect(
      contractNextStep({
        status: 'sent',
        paymentMode: 'portal',
        insertionOrderStatus: 'accepted',
        firstInvoiceDate: '2026-01-05',
        today: '2026-03-10',
      })?.firstInvoiceOn,
    ).toBe('2026-03-10');
  });
});

describe('the words', () => {
  const step = (kind: ContractNextStep['kind'], signed: boolean): ContractNextStep => ({
    kind,
    signed,
    firstInvoiceOn: '2026-12-15',
  });
  it.each([
    ['activation', true, 'Signed, ready to activate', 'Signed — your first invoice is issued on Dec 15, 2026'],
    ['first_payment', true, 'Signed, waiting for first payment', 'Signed — your first invoice is ready to pay'],
    [
      'activation',
      false,
      'Sent without an insertion order, ready to activate',
      'Your first invoice is issued on Dec 15, 2026',
    ],
    [
      'first_payment',
      false,
      'Sent without an insertion order, waiting for first payment',
      'Your first invoice is ready to pay',
    ],
  ] as const)('%s, signed %s', (kind, signed, staff, client) => {
    expect(staffNextStepTitle(step(kind, signed))).toBe(staff);
    expect(clientNextStepTitle(step(kind, signed), day)).toBe(client);
  });

  it('says who does what next', () => {
    expect(staffNextStepDetail(step('activation', true), day)).toBe(
      'Activate it: its first invoice is issued on Dec 15, 2026 once it is active, and the client pays it with Pay Now in the portal.',
    );
    expect(staffNextStepDetail(step('first_payment', true), day)).toBe(
      'The pay link asks the customer for the first invoice; paying it activates the contract. You may activate it sooner.',
    );
    expect(clientNextStepDetail(step('activation', true))).toBe(
      'We activate your contract by then and e-mail you the invoice; you pay it here with Pay Now.',
    );
    expect(clientNextStepDetail(step('first_payment', false))).toBe(
      'Pay it from the payment link we e-mailed you: your contract starts when it is paid.',
    );
  });
});
