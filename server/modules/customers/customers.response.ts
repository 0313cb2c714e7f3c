import { AGENCY_BILLING_MODES, type AgencyOfRecord, CUSTOMER_KINDS } from '@shared/contracts/agencies';
import type { Customer } from '@shared/contracts/customers';
import {
  arrayOf,
  integer,
  nullable,
  nullableNumber,
  nullableString,
  number,
  object,
  string,
} from '../../lib/response-schema';

/** A period of an advertiser's representation by an agency (product.md section 20). */
export const agencyOfRecordResponse = object<AgencyOfRecord>({
  id: string,
  advertiserId: string,
  advertiserName: string,
  agencyId: string,
  agencyName: string,
  commissionPercent: number,
  billingMode: { type: 'string', enum: [...AGENCY_BILLING_MODES] },
  from: string,
  to: nullableString,
});
export const agencyOfRecordListResponse = arrayOf(agencyOfRecordResponse);

/** A customer as the API answers it (lib/response-schema.ts): only these fields are ever sent. */
export const customerResponse = object<Customer>({
  id: string,
  name: string,
  email: string,
  company: nullableString,
  phone: nullableString,
  address: nullableString,
  city: nullableString,
  state: nullableString,
  zipCode: nullableString,
  country: nullableString,
  contactPerson: nullableString,
  website: nullableString,
  industry: nullableString,
  notes: nullableString,
  contractCount: integer,
  activeContractCount: integer,
  creditBalance: number,
  kind: { type: 'string', enum: [...CUSTOMER_KINDS] },
  agencyCommissionPercent: nullableNumber,
  agencyOfRecord: nullable(agencyOfRecordResponse),
  createdAt: string,
  updatedAt: string,
});
export const customerListResponse = arrayOf(customerResponse);
