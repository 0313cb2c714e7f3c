import { type JsonSchema, object, string } from '../../lib/response-schema';

/** The fixed lines of GET /api/health; each extra check (HEALTH_CHECKS) adds a line under its own name. */
export type HealthAnswer = { status: 'ok' | 'degraded' | 'down'; database: 'ok' | 'unreachable' };

/**
 * GET /api/health, 200 and 503 alike (lib/response-schema.ts): status, database and one string line per
 * named check, each always present ('unknown' when it could not run); nothing else is ever sent.
 */
export function healthResponse(checks: readonly string[]): JsonSchema {
  const fixed = object<HealthAnswer>({ status: string, database: string });
  const lines = Object.fromEntries(checks.map((name) => [name, string]));
  return {
    ...fixed,
    properties: { ...(fixed.properties as JsonSchema), ...lines },
    required: [...(fixed.required as string[]), ...checks],
  };
}
