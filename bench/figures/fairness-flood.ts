import { parentPort, workerData } from 'node:worker_threads';
import { connectAsync } from 'mqtt';
import { HttpClient } from '../../test/factories/http-client';

/**
 * Company A's flood for the `fairness` figure (fairness.ts), in its own thread: A's scripts run on
 * A's machines, not in the event loop that times company B's requests. No back-off on 429: a
 * hostile or broken client. Told `stop`, it answers with its counts.
 */
export interface FloodData {
  baseUrl: string;
  mqttUrl: string;
  basicCookies: [string, string][];
  installerCookies: [string, string][];
  templateA: string;
  companyA: string;
  controllerId: string;
  token: string;
  series: { entity_cuid: string; parameter_id: string }[];
  today: number;
  floods: string[];
}
export type FloodCounts = Record<'exports' | 'exports429' | 'commands' | 'mails' | 'publishes' | 'errors', number>;

const data = workerData as FloodData;
const day = 86_400_000;
const counts: FloodCounts = { exports: 0, exports429: 0, commands: 0, mails: 0, publishes: 0, errors: 0 };
let flooding = true;
const loops: Promise<void>[] = [];

const client = (cookies: [string, string][]) => {
  const c = new HttpClient(data.baseUrl);
  for (const [k, v] of cookies) c.cookies.set(k, v);
  return c;
};
const basic = client(data.basicCookies);
const installer = client(data.installerCookies);

const loop = (what: keyof FloodCounts, step: () => Promise<void>) => {
  if (!data.floods.includes(what)) return;
  loops.push(
    (async () => {
      while (flooding) {
        try {
          await step();
          counts[what]++;
        } catch {
          counts.errors++;
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    })(),
  );
};

async function main(): Promise<void> {
  for (let k = 0; k < 2; k++) {
    loop('exports', async () => {
      const res = await basic.mutate('exportJob.start', {
        template_cuid: data.templateA,
        from: new Date(data.today - 400 * day),
        to: new Date(data.today),
        format: 'xlsx',
      });
      if (res.status === 429) counts.exports429++;
    });
  }
  let n = 0;
  loop('commands', async () => {
    await installer.mutate('controllerCommand.send', {
      controller_id: data.controllerId,
      kind: 'apply_config',
      payload: { controller: { log_interval_s: 30 + (n++ % 600) } },
    });
  });
  loop('mails', async () => {
    const res = await basic.mutate<{ channel_cuid?: string }>('emailChannel.create', { company_cuid: data.companyA, email: `flood-${n++}@bench.test` });
    const id = res.data?.channel_cuid;
    if (id) await basic.mutate('emailChannel.resendVerification', { channel_cuid: id });
  });
  // A parked persistent session of A's controller, then batches whose replies queue for it.
  const auth = { username: data.controllerId, password: data.token, protocolVersion: 4 as const, reconnectPeriod: 0 };
  const parked = await connectAsync(data.mqttUrl, { clientId: `${data.controllerId}:parked`, clean: false, ...auth });
  await parked.subscribeAsync(`portal/v1/${data.controllerId}/reply`, { qos: 1 });
  await parked.endAsync();
  const publisher = await connectAsync(data.mqttUrl, { clientId: `${data.controllerId}:flood`, ...auth });
  let t = data.today - 30 * day;
  loop('publishes', async () => {
    const rows = data.series.slice(0, 5).map((s) => ({ timestamp: (t += 1000), entity_cuid: s.entity_cuid, parameter_id: s.parameter_id, value: 1 }));
    await publisher.publishAsync(`portal/v1/${data.controllerId}/telemetry`, JSON.stringify({ batch_id: `m${t}`, rows }), { qos: 1 });
  });
  parentPort!.postMessage({ type: 'started' });
  const finish = async () => {
    flooding = false;
    await Promise.all(loops);
    await publisher.endAsync(true).catch(() => undefined);
    parentPort!.postMessage({ type: 'counts', counts });
  };
  // A failure here is unhandled and ends this worker, which its parent sees (as before).
  parentPort!.once('message', () => void finish());
}

void main().catch((e: unknown) => parentPort!.postMessage({ type: 'failed', message: (e as Error).message }));
