/** audit: the words and constants screens show (no zod here, so a screen can import them without the schemas). */
/** The entities the audit trail records, for the Audit screen's filter. */
export const AUDIT_ENTITIES = [
  'contract',
  'customer',
  'contact',
  'invoice',
  'payment',
  'payout',
  'commission',
  'product',
  'package',
  'deal',
  'activity',
  'user',
  'settings',
  'api_key',
  'accounting_export',
  'webhook_endpoint',
] as const;
