import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks-vocabulary';

export * from './webhooks-vocabulary';

export const WEBHOOK_MESSAGES = {
  urlRequired: 'Enter the URL of the endpoint',
  urlInvalid: 'Enter a full URL, like https://example.com/webhooks',
  urlTooLong: 'The URL cannot be longer than 2,000 characters',
  urlScheme: 'The URL must use HTTPS (HTTP only to localhost)',
  urlCredentials: 'The URL cannot contain a user name or password',
  eventsRequired: 'Choose at least one event',
  eventUnknown: 'Unknown event',
  descriptionTooLong: 'Description cannot be longer than 500 characters',
  nothingToChange: 'Nothing to change',
} as const;

/** Hosts that may be called over plain HTTP: this machine only. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/**
 * The endpoint's URL as far as it can be checked without the network: absolute http(s), HTTPS unless the host
 * is localhost, no user name or password. The server then resolves the host and refuses private, link-local,
 * metadata and other non-public addresses (server/modules/webhooks/webhook-address.ts).
 */
export const webhookUrlSchema = z
  .string({ message: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .max(2000, WEBHOOK_MESSAGES.urlTooLong)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlInvalid });
      return;
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlScheme });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlCredentials });
    } else if (!url.hostname) {
      ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.urlInvalid });
    }
  });

const eventsSchema = z
  .array(
    z.string({ message: WEBHOOK_MESSAGES.eventUnknown }).superRefine((value, ctx) => {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)) {
        ctx.addIssue({ code: 'custom', message: `${WEBHOOK_MESSAGES.eventUnknown}: ${value.slice(0, 60)}` });
      }
    }),
    { message: WEBHOOK_MESSAGES.eventsRequired },
  )
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .max(WEBHOOK_EVENT_TYPES.length * 4, 'Too many events')
  .transform((events): WebhookEventType[] => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));

const descriptionSchema = z
  .string({ message: 'Description must be text' })
  .trim()
  .max(500, WEBHOOK_MESSAGES.descriptionTooLong)
  .nullish()
  .transform((v) => (v === undefined ? undefined : v || null));

/** POST /api/webhooks and the "Add endpoint" form. */
export const createWebhookSchema = z.object({
  url: webhookUrlSchema,
  description: descriptionSchema,
  events: eventsSchema,
});
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;
export type CreateWebhook = z.output<typeof createWebhookSchema>;

/** PATCH /api/webhooks/{id} and the "Edit endpoint" form: any of the fields; enabled turns it on or off. */
export const updateWebhookSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    description: descriptionSchema.optional(),
    events: eventsSchema.optional(),
    enabled: z.boolean({ message: 'enabled must be true or false' }).optional(),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), WEBHOOK_MESSAGES.nothingToChange);
export type UpdateWebhookInput = z.input<typeof updateWebhookSchema>;
export type UpdateWebhook = z.output<typeof updateWebhookSchema>;

export const webhookDeliveryParamsSchema = z.object({
  id: z.string().uuid('Not a valid id'),
  deliveryId: z.string().uuid('Not a valid id'),
});
