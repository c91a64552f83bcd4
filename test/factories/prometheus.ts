/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (-?(?:[0-9]+(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)|[Nn][Aa][Nn]|[+-]?Inf)(?: -?[0-9]+)?$`,
);
const COMMENT = new RegExp(`^# (?:HELP ${NAME} .*|TYPE ${NAME} (?:counter|gauge|histogram|summary|untyped))$`);
const ONE_LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;

/**
 * Parses Prometheus text format 0.0.4 strictly: every line is a HELP/TYPE comment or a sample
 * (name, optional labels, value; NaN in any case, as Prometheus's float parser takes it, and
 * prom-client writes `Nan`); anything else throws with the line.
 */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      if (!COMMENT.test(line)) throw new Error(`not a Prometheus comment line: ${line}`);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (m[2] ?? '').matchAll(ONE_LABEL)) {
      if (key in labels) throw new Error(`label ${key} twice: ${line}`);
      labels[key] = raw.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: m[1], labels, value: /nan/i.test(m[3]) ? NaN : Number(m[3].replace('Inf', 'Infinity')) });
  }
  return samples;
}

/** The samples of `name` whose labels include `labels`. */
export function select(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the matching samples (0 when none). */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return select(samples, name, labels).reduce((sum, s) => sum + s.value, 0);
}
