const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The customer a link to the new-contract form chose (`/contracts/new?customerId=<id>`, the customer page's
 * "New Contract"): its id when the parameter holds one, else undefined (the form starts with no customer).
 */
export function preselectedCustomerId(search: string | URLSearchParams): string | undefined {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const id = params.get('customerId')?.trim();
  return id && UUID.test(id) ? id.toLowerCase() : undefined;
}
