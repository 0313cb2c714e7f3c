import type { Contact } from '@shared/contracts/contacts';
import { arrayOf, boolean, nullableString, object, string } from '../../lib/response-schema';

/** A contact as the API answers it (lib/response-schema.ts): only these fields are ever sent. */
export const contactResponse = object<Contact>({
  id: string,
  customerId: string,
  name: string,
  role: nullableString,
  email: nullableString,
  phone: nullableString,
  notes: nullableString,
  isPrimary: boolean,
  isBilling: boolean,
  createdAt: string,
  updatedAt: string,
});
export const contactListResponse = arrayOf(contactResponse);
