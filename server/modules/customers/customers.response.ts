import type { Customer } from '@shared/contracts/customers';
import { arrayOf, integer, nullableString, number, object, string } from '../../lib/response-schema';

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
  createdAt: string,
  updatedAt: string,
});
export const customerListResponse = arrayOf(customerResponse);
