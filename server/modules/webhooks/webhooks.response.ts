import type {
  CreatedWebhookEndpoint,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookSecret,
} from '@shared/contracts/webhooks-vocabulary';
import {
  arrayOf,
  boolean,
  integer,
  nullable,
  nullableInteger,
  nullableString,
  object,
  string,
} from '../../lib/response-schema';

const endpointProperties = {
  id: string,
  url: string,
  description: nullableString,
  events: arrayOf(string),
  enabled: boolean,
  disabledReason: nullableString,
  disabledAt: nullableString,
  failingSince: nullableString,
  previousSecretExpiresAt: nullableString,
  createdAt: string,
  createdBy: nullable(object<{ id: string; name: string }>({ id: string, name: string })),
  updatedAt: string,
  lastDelivery: nullable(
    object<NonNullable<WebhookEndpointView['lastDelivery']>>({
      at: string,
      status: string,
      httpStatus: nullableInteger,
    }),
  ),
};

export const webhookResponse = object<WebhookEndpointView>(endpointProperties);
export const webhookListResponse = arrayOf(webhookResponse);
export const createdWebhookResponse = object<CreatedWebhookEndpoint>({ ...endpointProperties, secret: string });
export const webhookSecretResponse = object<WebhookSecret>({ secret: string, previousSecretExpiresAt: nullableString });

export const webhookDeliveryResponse = object<WebhookDeliveryView>({
  id: string,
  eventId: string,
  eventType: string,
  status: string,
  attempts: integer,
  httpStatus: nullableInteger,
  durationMs: nullableInteger,
  error: nullableString,
  lastAttemptAt: nullableString,
  nextAttemptAt: nullableString,
  createdAt: string,
});
export const webhookDeliveryListResponse = arrayOf(webhookDeliveryResponse);
