import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq, ne } from 'drizzle-orm';
import { afterAll, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { contracts, webhookDeliveries } from '../../db/schema';
import { emitWebhookEvent } from '../../modules/webhooks/webhook-events';
import { createWebhook } from '../../modules/webhooks/webhooks.service';
import { createContractFor } from '../commission-factories';
import { onlyOn } from '../engine';
import { createTestUser } from '../factories';
import { adminQuery, withDatabase } from '../global-setup';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver';

/**
 * Webhooks on several instances (product.md section 16, decision 042): two real app processes on one
 * PostgreSQL database, each running its delivery worker (every 100 ms, leases of 3 s). Events are raised as
 * the modules raise them; one instance is killed with SIGKILL half way. Every event reaches the receiver
 * (which verifies each request with standardwebhooks and refuses the first attempt of every third event), and
 * no event is taken (2xx) twice except one the killed instance had in flight, sent again after its lease.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const EVENTS = 40;
const LEASE_SECONDS = 3;

type Instance = { child: ChildProcess; exited: Promise<void>; output: () => string };

function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/cluster/serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not come up:\n${output}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      if (/^UP \d+$/m.test(output)) {
        clearTimeout(timer);
        resolve({ child, exited, output: () => output });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`instance exited before coming up:\n${output}`));
    });
  });
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

onlyOn('postgres', 'several processes share one database, and the embedded one serves a single process')(
  'webhooks delivered by two instances',
  () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? '';
    const name = `adcrm_t_${process.ppid}_${randomBytes(6).toString('hex')}`;
    const instances: Instance[] = [];
    let database: Database | null = null;
    let receiver: WebhookReceiver | null = null;
    afterAll(async () => {
      for (const instance of instances) instance.child.kill('SIGKILL');
      await Promise.all(instances.map((instance) => instance.exited));
      await receiver?.close();
      await database?.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it('each event at least once, and twice only when a retry or the killed instance explains it', {
      timeout: 120_000,
    }, async () => {
      await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
      const url = withDatabase(adminUrl, name);
      database = await openDatabase({ url });
      const db = database.db;
      receiver = await startWebhookReceiver();
      const admin = await createTestUser(db, { role: 'admin' });
      const endpoint = await createWebhook({ db }, admin, {
        url: receiver.url,
        description: 'cluster',
        events: ['contract.sent'],
      });
      receiver.secrets.push(endpoint.secret);
      // Every third event is refused on its first attempt (500), taken on its retry 5 seconds later.
      const refuseFirst = new Set<string>();
      const answers: { id: string; status: number; at: number }[] = [];
      receiver.respond = (request) => {
        const index = Number(request.json.data.title?.toString().split(' ').pop());
        const status = index % 3 === 0 && request.seenBefore === 0 ? 500 : 200;
        if (status === 500) refuseFirst.add(request.id);
        answers.push({ id: request.id, status, at: Date.now() });
        return { status };
      };

      const env = {
        DATABASE_URL: url,
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
        WEBHOOK_TIMEOUT_MS: '2000',
        LOG_LEVEL: 'warn',
      };
      instances.push(await startInstance(env), await startInstance(env));

      const contractIds: string[] = [];
      for (let i = 1; i <= EVENTS; i++) {
        const { contract } = await createContractFor(db, null);
        contractIds.push(contract.id);
        await db.transaction(async (tx) => {
          await tx
            .update(contracts)
            .set({ title: `Event ${i}` })
            .where(eq(contracts.id, contract.id));
          await emitWebhookEvent(tx, 'contract.sent', { ids: [contract.id] });
        });
        if (i === EVENTS / 2) {
          // Half way: the first instance dies at once, whatever it was sending.
          await waitFor(() => receiver!.received.length > 0, 20_000, 'a first delivery');
          instances[0].child.kill('SIGKILL');
          await instances[0].exited;
        }
      }
      const killedAt = Date.now();

      await waitFor(
        () => new Set(answers.filter((a) => a.status === 200).map((a) => a.id)).size >= EVENTS,
        60_000,
        `every event taken (output: ${instances[1].output()})`,
      );
      // The receiver counts a 2xx as it answers; the instance records it a moment later. Wait for the records,
      // then every delivery must be done (a delivery left pending fails the test after the wait, with its row).
      const unfinishedDeliveries = () =>
        db.select().from(webhookDeliveries).where(ne(webhookDeliveries.status, 'succeeded'));
      await waitFor(async () => (await unfinishedDeliveries()).length === 0, 10_000, 'every delivery recorded').catch(
        () => {},
      );
      expect(await unfinishedDeliveries()).toEqual([]);

      // Every request verified by the package; every event (by its data's contract) arrived with one webhook-id.
      for (const request of receiver.received) expect(request.verifiedWith).toEqual([0]);
      const idsByContract = new Map<string, Set<string>>();
      for (const request of receiver.received) {
        const contractId = String(request.json.data.id);
        if (!idsByContract.has(contractId)) idsByContract.set(contractId, new Set());
        idsByContract.get(contractId)!.add(request.id);
      }
      expect([...idsByContract.keys()].sort()).toEqual([...contractIds].sort());
      for (const ids of idsByContract.values()) expect(ids.size).toBe(1);

      // Duplicates: a refused first attempt is retried once; a 2xx twice only for an event first taken before
      // the kill (the dead instance had it in flight and had not recorded it), the copy after its lease.
      const byId = new Map<string, { status: number; at: number }[]>();
      for (const answer of answers) byId.set(answer.id, [...(byId.get(answer.id) ?? []), answer]);
      let resentAfterKill = 0;
      for (const [id, list] of byId) {
        const refused = list.filter((a) => a.status === 500).length;
        const taken = list.filter((a) => a.status === 200);
        expect(refused, id).toBe(refuseFirst.has(id) ? 1 : 0);
        expect(taken.length, id).toBeGreaterThanOrEqual(1);
        if (taken.length > 1) {
          expect(taken.length, id).toBe(2);
          expect(taken[0].at, id).toBeLessThanOrEqual(killedAt);
          resentAfterKill += 1;
        }
      }
      // The dead instance had at most one claimed batch in flight (its requests at once: 10).
      expect(resentAfterKill).toBeLessThanOrEqual(10);
      expect(refuseFirst.size).toBe(Math.floor(EVENTS / 3));
    });
  },
);
