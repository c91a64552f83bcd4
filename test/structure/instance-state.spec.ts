import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * Several instances serve the same users (docs/scaling.md, "Shared state"): state a provider keeps
 * in its own process is invisible to the others. The class: every field of a provider that holds a
 * collection (Map, Set, array, object literal, a *Cache class) or is named like a cache must either
 * be dropped through SharedSignals (the class registers `signals.on(…)`) or be listed below with
 * the reason why one copy per process is right.
 */
const ROOT = join(__dirname, '..', '..', 'server', 'src');

/** `Class.field` → why per process is correct. Keep it short and true. */
const PER_PROCESS: Record<string, string> = {
  // Per connection, stream, socket or running job of this process.
  'MqttIngestService.sessions': 'per broker connection (in-process broker): the connection lives in this process; tokens re-checked on the auth-tokens signal',
  'MqttIngestService.authenticated': 'per socket of the in-process broker',
  'MqttIngestService.perAddress': 'open sockets of this process per address (a per-instance connection limit)',
  'MqttIngestService.commandSubscribers': "per connection: which of this process's broker clients subscribed",
  'MqttIngestService.retiring': "connections this process opened to retire dead members' sessions (their claim lives in mqtt_member)",
  'LiveEventsService.streams': 'per open event stream of this process',
  'LiveEventsService.loading': 'per-request coalescing: one read of an event body for the streams that wait for it (30 s at most)',
  'OutboxWorker.loops': "this process's delivery loops",
  'OutboxWorker.counters': "this process's metrics",
  'OutboxWorker.heartbeats': "lease renewals of this process's delivery rounds (the claims themselves live in notification_delivery.claim_token)",
  'ExportJobsWorker.aborts': 'running export jobs of this process (claimed with SKIP LOCKED)',
  'ExportThreads.idle': 'worker threads of this process waiting for its next export job',
  'ExportThreads.all': 'worker threads of this process (terminated when it stops)',
  'ExportJobsWorker.waiting':
    'only which waiting schedules this process already logged and counted; the schedule itself waits in the database (export_schedule stays due)',
  'ExportHttpService.streams': 'export streams open on this process (a per-instance limit, like MQTT connections per address)',
  'AccountsService.background': 'in-flight work of this process (awaited on shutdown)',
  // Work queues and in-flight bookkeeping of this process.
  'AlertEngine.pending': 'samples this process received and has not judged yet (its own queue)',
  'AlertEngine.catchUp': "this process's queue of triggers to read back",
  'AlertEngine.transitions': 'in-flight evaluations of this process (awaited on shutdown)',
  'CommandService.ackQueue': 'acknowledgements this process received, written in batches',
  'CommandService.background': 'in-flight work of this process (awaited on shutdown)',
  // Write coalescing: the database holds the truth, the map only saves writes.
  'AuthTokenService.lastTouched': 'throttles last_used_at writes (at most one a minute per token and process); nothing is read from it',
  'ControllerOnlineStateService.inFlight': 'contact writes in flight in this process',
  'ControllerOnlineStateService.recent':
    'skips a presence write for resolutionMs (≤ 5 s) after its own: last_seen_at lags that at most, well below the offline delay; transitions are made under the row lock',
  // Bounded staleness, stated.
  'TelegramBot.meCache': "the bot's own identity (getMe), fixed for a token",
  'TelegramBot.windows': "Telegram's send limits, per process: N instances may send N× as fast; Telegram's 429 retry_after is honoured (chats put aside)",
  'FleetService.cache': 'live telemetry summary, OVERVIEW_CACHE_MS (3 s) on one instance as on several; no write invalidates it',
};

interface Finding {
  file: string;
  klass: string;
  field: string;
  why: string;
}

const NAMED_LIKE_STATE = /cache|recent|memo|seen|lastTest|known/i;
const COLLECTION_CLASS = /^(Weak)?(Map|Set)$|Cache$|Queue$|Windows$/;
/**
 * Not state: callbacks registered at start-up (the same code on every instance) and the same
 * constants on every instance. Named by field, so a new field is looked at, not waved through.
 */
const WIRING = /^(listeners|handlers|revokeListeners|subscribeHandlers|bySource|definitions|allowedTypes|rules)$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return files(p);
    return d.name.endsWith('.ts') && !d.name.endsWith('.spec.ts') ? [p] : [];
  });
}

const decorators = (node: ts.ClassDeclaration): string[] =>
  (ts.getDecorators(node) ?? []).map((d) => (ts.isCallExpression(d.expression) ? d.expression.expression.getText() : d.expression.getText()));

/** Why an initializer holds state, or null. */
function stateOf(init: ts.Expression | undefined): string | null {
  if (!init) return null;
  if (ts.isNewExpression(init)) {
    const name = init.expression.getText();
    return COLLECTION_CLASS.test(name) ? `new ${name}` : null;
  }
  if (ts.isArrayLiteralExpression(init)) return 'array';
  if (ts.isObjectLiteralExpression(init)) return 'object';
  return null;
}

/** A field initialised to an object literal of functions only (hooks: code, not data). */
function hooksOnly(klass: ts.ClassDeclaration, field: string): boolean {
  const m = klass.members.find((x): x is ts.PropertyDeclaration => ts.isPropertyDeclaration(x) && ts.isIdentifier(x.name) && x.name.text === field);
  const init = m?.initializer;
  if (!init || !ts.isObjectLiteralExpression(init)) return false;
  return init.properties.every(
    (p) => ts.isMethodDeclaration(p) || (ts.isPropertyAssignment(p) && (ts.isArrowFunction(p.initializer) || ts.isFunctionExpression(p.initializer))),
  );
}

/** `this.x` names used in `node`, following `this.method()` calls into the class's own methods. */
function touched(node: ts.Node, methods: Map<string, ts.Node>, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  const walk = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const name = n.name.text;
      out.add(name);
      const method = methods.get(name);
      if (method && !seen.has(name)) {
        seen.add(name);
        for (const x of touched(method, methods, seen)) out.add(x);
      }
    }
    ts.forEachChild(n, walk);
  };
  walk(node);
  return out;
}

/** Handlers given to `signals.on(topic, handler)` / `signals?.on(…)` in a class. */
function signalHandlers(node: ts.ClassDeclaration): ts.Node[] {
  const out: ts.Node[] = [];
  const walk = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && n.arguments.length === 2 && /\bsignals\??\.on$/.test(n.expression.getText())) out.push(n.arguments[1]);
    ts.forEachChild(n, walk);
  };
  walk(node);
  return out;
}

function scan(): { findings: Finding[]; providers: number; invalidated: string[] } {
  const findings: Finding[] = [];
  const invalidated: string[] = [];
  let providers = 0;
  for (const file of files(ROOT)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        // A provider: @Injectable, or a class the database module provides by value (SharedSignals).
        const isProvider = decorators(node).includes('Injectable') || node.name.text === 'SharedSignals';
        if (isProvider) {
          providers++;
          const klass = node.name.text;
          const fields = new Map<string, string>();
          const methods = new Map<string, ts.Node>();
          for (const m of node.members) {
            if ((ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m)) && ts.isIdentifier(m.name) && m.body) methods.set(m.name.text, m.body);
            if (ts.isPropertyDeclaration(m) && ts.isIdentifier(m.name)) {
              const why = stateOf(m.initializer) ?? (NAMED_LIKE_STATE.test(m.name.text) ? 'name' : null);
              if (why) fields.set(m.name.text, why);
            }
            // Fields given their value in the constructor: `this.x = new Map()`.
            if (ts.isConstructorDeclaration(m) && m.body) {
              const walk = (n: ts.Node): void => {
                if (
                  ts.isBinaryExpression(n) &&
                  n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
                  ts.isPropertyAccessExpression(n.left) &&
                  n.left.expression.kind === ts.SyntaxKind.ThisKeyword
                ) {
                  const why = stateOf(n.right);
                  if (why) fields.set(n.left.name.text, why);
                }
                ts.forEachChild(n, walk);
              };
              walk(m.body);
            }
          }
          // A field is invalidated when a signal handler (or a method it calls) touches it.
          const dropped = new Set<string>();
          for (const h of signalHandlers(node)) for (const x of touched(h, methods)) dropped.add(x);
          for (const [field, why] of fields) {
            if (WIRING.test(field) || (why === 'object' && hooksOnly(node, field))) continue;
            if (dropped.has(field)) invalidated.push(`${klass}.${field}`);
            else findings.push({ file: relative(ROOT, file), klass, field, why });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { findings, providers, invalidated };
}

describe('state kept by one instance', () => {
  const { findings, providers, invalidated } = scan();

  it('reads the providers (the scan is not empty)', () => {
    expect(providers).toBeGreaterThan(50);
    // The caches wired to SharedSignals are seen as such (a handler, or a method it calls, drops them).
    expect(invalidated).toEqual(
      expect.arrayContaining([
        'BrandingService.cache',
        'CrudService.counts',
        'ControllerDirectoryService.controllers',
        'ControllerDirectoryService.loadedAt',
        'CommandService.infoCache',
        'AlertEngine.cache',
      ]),
    );
  });

  it('every per-process collection of a provider is invalidated through SharedSignals or listed with its reason', () => {
    const unexplained = findings.filter((f) => !PER_PROCESS[`${f.klass}.${f.field}`]).map((f) => `${f.file}: ${f.klass}.${f.field} (${f.why})`);
    expect(unexplained).toEqual([]);
  });

  it('the list names only fields that exist and are still per process (no stale excuses)', () => {
    const found = new Set(findings.map((f) => `${f.klass}.${f.field}`));
    expect(Object.keys(PER_PROCESS).filter((k) => !found.has(k))).toEqual([]);
  });
});
