import { describe, expect, it } from 'vitest';
import type { Role } from '../roles';
import { canSeeContract, clientOwnsContract } from './contract-access';

// Worked out by hand from product.md sections 3 and 20: a client sees the sent contracts billed to its customer
// (an agency's, whichever advertiser's they are; never an advertiser's own contract billed to its agency); staff
// see every contract with the "any" permission, a sales rep only their own.
const REP = 'rep-1';
const CUSTOMER = 'customer-1';
const AGENCY = 'agency-1';
const contract = (status: string, billToCustomerId = CUSTOMER, salesRepId: string | null = REP) => ({
  status,
  billToCustomerId,
  salesRepId,
});
const caller = (role: Role, customerId: string | null = null, id = 'user-9') => ({ id, role, customerId });

describe('who sees a contract', () => {
  it.each([
    // caller, contract, client owns it, sees it
    ['client of the customer, active', caller('client', CUSTOMER), contract('active'), true, true],
    ['client of the customer, sent', caller('client', CUSTOMER), contract('sent'), true, true],
    ['client of the customer, completed', caller('client', CUSTOMER), contract('completed'), true, true],
    ['client of the customer, draft', caller('client', CUSTOMER), contract('draft'), false, false],
    ['client of another customer', caller('client', 'customer-2'), contract('active'), false, false],
    ['client linked to no customer', caller('client', null), contract('active'), false, false],
    ['client of the agency, billed to it', caller('client', AGENCY), contract('active', AGENCY), true, true],
    [
      'client of the advertiser, billed to its agency',
      caller('client', CUSTOMER),
      contract('active', AGENCY),
      false,
      false,
    ],
    ['client of the agency, billed to the advertiser', caller('client', AGENCY), contract('active'), false, false],
    ['finance linked to the customer', caller('finance', CUSTOMER), contract('active'), false, true],
    ['admin', caller('admin'), contract('draft'), false, true],
    ['sales manager', caller('sales_manager'), contract('active'), false, true],
    ['the contract own sales rep', caller('sales', null, REP), contract('draft'), false, true],
    ['another sales rep', caller('sales', null, 'rep-2'), contract('active'), false, false],
    [
      'a sales rep on a contract without rep',
      caller('sales', null, REP),
      contract('active', CUSTOMER, null),
      false,
      false,
    ],
  ])('%s', (_label, actor, row, owns, sees) => {
    expect(clientOwnsContract(actor, row)).toBe(owns);
    expect(canSeeContract(actor, row)).toBe(sees);
  });
});
