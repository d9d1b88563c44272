/** The benchmark's verdicts and its table: what is printed and what goes to latest.json. */
import type { ImportTimings } from './import-data.ts';
import type { LoadResult } from './load.ts';
import { DISAGREEMENT_LIMIT, type Pair, type PairSummary } from './pairs.ts';
import type { HistoryStorage, NavRecord } from './navigation-http.ts';

/** A scenario measured in pairs with its L0. */
export interface PairedRecord {
  /** '1', '1z', '2', … */
  id: string;
  title: string;
  body: string;
  /** Size of the body L0 answers with. */
  bodyBytes: number;
  expect: number;
  pairs: Pair[];
  summary: PairSummary;
}

/** A single run: L1 once per body, and the one-connection runs against offset paging. */
export interface RunRecord {
  /** 'L1:page50', '5a@1', 'N-deep@1', … */
  id: string;
  kind: 'L1' | 'latency' | 'N';
  title: string;
  body: string;
  bodyBytes: number;
  expect: number;
  result: LoadResult;
}

export interface Target {
  name: string;
  /** The issue that set it. */
  issue: string;
  target: string;
  measured: string;
  /** null: not measured in this run. */
  pass: boolean | null;
}

export interface ReportInput {
  mode: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; kernel: string; node: string };
  loadAverage: { atStart: number[]; atEnd: number[] };
  settings: { generator: string; connections: number; threads: number; pairs: number; warmupSeconds: number; durationSeconds: number; deepDepth: number };
  data: {
    params: { codes: number; changes: number; dates: number; seed: number };
    reused: boolean;
    builtAt: string;
    imports: ImportTimings;
    importsMeasured: string;
  };
  server: { startMs: number[]; startMedianMs: number; idleRssMb: number; stopMs: number };
  scenarios: PairedRecord[];
  runs: RunRecord[];
  navigation?: NavRecord[];
  history?: HistoryStorage | null;
  targets?: Target[];
  unexpected?: string[];
}

/** Responses with another status than expected, connection errors and timeouts. */
export function unexpectedOf(id: string, result: LoadResult, expect: number): string[] {
  const out: string[] = [];
  for (const [status, count] of Object.entries(result.statuses)) {
    if (Number(status) !== expect && count > 0) out.push(`${id}: ${count} × HTTP ${status} (expected ${expect})`);
  }
  if (result.errors > 0) out.push(`${id}: ${result.errors} connection errors (${result.timeouts} timeouts)`);
  if (result.responses === 0) out.push(`${id}: no response at all`);
  return out;
}

function unexpectedOfScenario(s: PairedRecord): string[] {
  return s.pairs.flatMap((p, i) => [
    ...unexpectedOf(`${s.id} (pair ${i + 1})`, p.scenario, s.expect),
    ...unexpectedOf(`L0 of ${s.id} (pair ${i + 1})`, p.baseline, 200),
  ]);
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(0)} %`);
const times = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)}×`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? null : a / b);

/** The targets of issue 16 (ratios to L0 in the same run, interleaved, wrk), and those of issue 6 it did not replace. */
const RATIO_TARGETS: [id: string, min: number, name: string, issue: string][] = [
  ['1', 0.6, 'get-by-id, uniform', '16'],
  ['2', 0.3, '50-code page, uniform', '16'],
  ['2', 0.5, '50-code page, uniform (the first target, still the goal)', '6'],
  ['1z', 0.75, 'get-by-id, Zipf', '16'],
  ['2z', 0.5, '50-code page, Zipf', '16'],
  ['3', 0.25, '200-change page, uniform', '16'],
  ['4', 0.7, '401 path', '16'],
];

export function evaluateTargets(r: ReportInput): { targets: Target[]; unexpected: string[] } {
  const scenario = (id: string) => r.scenarios.find((s) => s.id === id);
  const run = (id: string) => r.runs.find((x) => x.id === id);
  const targets: Target[] = [];
  const measuredAt = (n: number) => (r.data.params.codes === 1_000_000 ? '' : ` (${n.toLocaleString('en-US')} codes)`);

  for (const [id, min, name, issue] of RATIO_TARGETS) {
    const s = scenario(id);
    const value = s ? s.summary.ratio : null;
    const spread = s ? ` (${pct(s.summary.ratioMin)}–${pct(s.summary.ratioMax)})` : '';
    targets.push({
      name: `${name} (${id}) ÷ L0, median of pairs`,
      issue,
      target: `≥ ${min * 100} %`,
      measured: `${pct(value)}${spread}`,
      pass: value === null ? null : value >= min,
    });
  }
  const worst = [...r.scenarios].sort((a, b) => b.summary.p99OverP50 - a.summary.p99OverP50)[0];
  targets.push({
    name: 'p99 ÷ p50, every scenario (the worst)',
    issue: '16',
    target: '≤ 3',
    // L0's own tail in the same pairs says how much of it the machine gives any server.
    measured: worst ? `${times(worst.summary.p99OverP50)} (${worst.id}; L0 ${times(worst.summary.baselineP99OverP50)})` : 'n/a',
    pass: worst ? worst.summary.p99OverP50 <= 3 : null,
  });
  const noisy = r.scenarios.filter((s) => s.summary.noisy);
  targets.push({
    name: `pairs agree: every ratio's spread (max − min) ÷ median`,
    issue: '16',
    target: `≤ ${DISAGREEMENT_LIMIT * 100} %`,
    measured:
      r.scenarios.length === 0 ? 'n/a' : noisy.length === 0 ? 'all' : `flagged: ${noisy.map((s) => `${s.id} ${pct(s.summary.disagreement)}`).join(', ')}`,
    pass: r.scenarios.length === 0 ? null : noisy.length === 0,
  });

  const first = scenario('5a');
  const deep = scenario('5b');
  const deepRatio = ratio(deep?.summary.p50, first?.summary.p50);
  targets.push({
    name: `deep page (${r.settings.deepDepth} codes) p50 ÷ first page p50, ${r.settings.connections} connections`,
    issue: '6',
    target: '≤ 1.2×',
    measured: times(deepRatio),
    pass: deepRatio === null ? null : deepRatio <= 1.2,
  });
  const oneRatio = ratio(run('5b@1')?.result.p50, run('5a@1')?.result.p50);
  targets.push({
    name: 'deep page p50 ÷ first page p50, 1 connection',
    issue: '6',
    target: '≤ 1.2×',
    measured: times(oneRatio),
    pass: oneRatio === null ? null : oneRatio <= 1.2,
  });
  const nRatio = ratio(run('N-deep@1')?.result.p50, run('N-first@1')?.result.p50);
  targets.push({ name: 'offset paging (N): deep p50 ÷ first p50, 1 connection', issue: '6', target: 'informative', measured: times(nRatio), pass: null });

  const scenarioErrors = r.scenarios.flatMap((s) => s.pairs.flatMap((p, i) => unexpectedOf(`${s.id} (pair ${i + 1})`, p.scenario, s.expect)));
  targets.push({
    name: 'unexpected responses in the scenarios (non-2xx but the 401s of 4, connection errors)',
    issue: '6',
    target: '0',
    measured: scenarioErrors.length === 0 ? '0' : scenarioErrors.join('; '),
    pass: r.scenarios.length === 0 ? null : scenarioErrors.length === 0,
  });
  const rss = r.scenarios.length === 0 ? null : Math.max(...r.scenarios.map((s) => s.summary.serverRssMaxMb));
  const anon = r.scenarios.length === 0 ? null : Math.max(...r.scenarios.map((s) => s.summary.serverAnonMaxMb));
  targets.push({
    name: `server memory under load: anonymous RSS, without the database pages it maps${measuredAt(r.data.params.codes)}`,
    issue: '16',
    target: '≤ 200 MB',
    measured: anon === null ? 'n/a' : `${anon} MB (RSS ${rss} MB)`,
    pass: anon === null ? null : anon <= 200,
  });
  targets.push({
    name: `spawn to first answered request (median of ${r.server.startMs.length})`,
    issue: '6',
    target: '≤ 1 s',
    measured: `${r.server.startMedianMs} ms`,
    pass: r.server.startMedianMs <= 1000,
  });
  const im = r.data.imports;
  targets.push({
    name: `import of the ${im.codes}-code snapshot`,
    issue: '16',
    target: '≤ 40 s',
    measured: `${(im.snapshotMs / 1000).toFixed(1)} s`,
    pass: im.snapshotMs <= 40_000,
  });
  targets.push({
    name: 're-import of the same snapshot (no change)',
    issue: '16',
    target: '≤ 15 s',
    measured: `${(im.reimportMs / 1000).toFixed(1)} s`,
    pass: im.reimportMs <= 15_000,
  });
  targets.push({
    name: `import peak RSS (${im.codes}-code snapshot; 5 000 000 not measured here)`,
    issue: '16',
    target: '≤ 300 MB',
    measured: `${im.peakRssMb} MB`,
    pass: im.peakRssMb <= 300,
  });

  for (const n of r.navigation ?? []) {
    targets.push({
      name: `${n.id} ${n.title}: ${n.measure === 'p50' ? 'p50' : 'ids per second'} ÷ ${n.reference}, median of pairs`,
      issue: '14',
      target: `${n.measure === 'p50' ? '≤' : '≥'} ${n.target}×`,
      measured: `${times(n.ratio)} (${times(n.ratioMin)}–${times(n.ratioMax)})`,
      pass: n.pass,
    });
  }
  if (r.history)
    targets.push({
      name: `storage the history adds (version table and its indexes)`,
      issue: '14',
      target: 'reported',
      measured: `${Math.round(r.history.bytesPerChange)} B per change (${(r.history.bytes / 1e6).toFixed(0)} MB over ${r.history.changes.toLocaleString('en-US')} changes)`,
      pass: null,
    });

  const navUnexpected = (r.navigation ?? []).flatMap((n) =>
    n.pairs.flatMap((p, i) => [
      ...unexpectedOf(`${n.id} (pair ${i + 1})`, p.scenario, 200),
      ...unexpectedOf(`reference of ${n.id} (pair ${i + 1})`, p.baseline, 200),
    ]),
  );
  const unexpected = [...r.scenarios.flatMap(unexpectedOfScenario), ...r.runs.flatMap((x) => unexpectedOf(x.id, x.result, x.expect)), ...navUnexpected];
  return { targets, unexpected };
}

// ---------------------------------------------------------------------------

function table(headers: string[], rows: string[][], leftColumns = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const fixed = (x: number, digits = 2) => x.toFixed(digits);
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');

function nonOk(results: LoadResult[], expect: number): string {
  let total = 0;
  let unexpected = 0;
  for (const x of results) {
    for (const [status, n] of Object.entries(x.statuses)) {
      if (status === 'other' || Number(status) >= 300) total += n;
      if (Number(status) !== expect) unexpected += n;
    }
  }
  return total === 0 ? '0' : unexpected === 0 ? `${thousands(total)} (expected)` : `${thousands(total)} (${thousands(unexpected)} unexpected)`;
}

function scenarioRow(s: PairedRecord): string[] {
  const x = s.summary;
  const results = s.pairs.map((p) => p.scenario);
  return [
    `${s.id} ${s.title}`,
    thousands(x.requestsPerSecond),
    thousands(x.baselineRequestsPerSecond),
    pct(x.ratio),
    `${pct(x.ratioMin)}–${pct(x.ratioMax)}`,
    `${pct(x.disagreement)}${x.noisy ? ' !' : ''}`,
    fixed(x.p50),
    fixed(x.p99),
    `${fixed(x.p99OverP50, 1)}×`,
    `${fixed(x.baselineP99OverP50, 1)}×`,
    nonOk(results, s.expect),
    String(results.reduce((a, r) => a + r.errors, 0)),
    `${x.serverAnonMaxMb}/${x.serverRssMaxMb}`,
    `${x.serverCpu}%/${x.clientCpu}%`,
    `${x.baselineServerCpu}%/${x.baselineClientCpu}%`,
    thousands(x.meanResponseBytes),
  ];
}

function runRow(run: RunRecord): string[] {
  const x = run.result;
  return [
    `${run.id} ${run.title}`,
    String(x.connections),
    thousands(x.requestsPerSecond),
    fixed(x.p50),
    fixed(x.p99),
    `${fixed(x.p99 / (x.p50 || 1), 1)}×`,
    nonOk([x], run.expect),
    String(x.errors),
    `${x.serverAnonMaxMb}/${x.serverRssMaxMb}`,
    `${x.serverCpu}%/${x.clientCpu}%`,
    thousands(x.meanResponseBytes),
  ];
}

const SCENARIO_HEADERS = [
  'run',
  'req/s',
  'L0 req/s',
  '×L0',
  'pairs',
  'spread',
  'p50 ms',
  'p99 ms',
  'p99/p50',
  'L0 p99/p50',
  'non-2xx',
  'errors',
  'anon/RSS MB',
  'CPU srv/wrk',
  'L0 srv/wrk',
  'B/resp',
];
const RUN_HEADERS = ['run', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'p99/p50', 'non-2xx', 'errors', 'anon/RSS MB', 'CPU srv/wrk', 'B/resp'];

export function formatReport(r: ReportInput): string {
  const out: string[] = [];
  const d = r.data;
  const st = r.settings;
  out.push(
    `Codebook benchmark (${r.mode}) — ${d.params.codes.toLocaleString('en-US')} codes, ${d.params.changes.toLocaleString('en-US')} changes, ${d.params.dates} dates (seed ${d.params.seed})`,
    `machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GB, Linux ${r.machine.kernel}, Node.js ${r.machine.node}; load average ${r.loadAverage.atStart.join(' ')} at the start, ${r.loadAverage.atEnd.join(' ')} at the end`,
    `load: ${st.generator} (${st.threads} thread${st.threads === 1 ? '' : 's'}), keep-alive, ${st.connections} connections; each scenario after ${st.warmupSeconds} s of warm-up runs ${st.pairs} pairs (L0, scenario) of ${st.durationSeconds} s on the same requests;`,
    `  ×L0 is the median of the pairs' ratios, "pairs" their range, "spread" (max − min) ÷ median, "!" above ${DISAGREEMENT_LIMIT * 100} %; req/s, p50, p99, p99/p50 (the scenario's and L0's), CPU: medians of the pairs; anon/RSS: max of the server's anonymous RSS and of its whole RSS, which also counts the database pages it maps; CPU: % of one core`,
    '',
  );
  if (r.scenarios.length > 0)
    out.push(
      'Scenarios, each interleaved with L0 (bare node:http answering a body of the same size)',
      table(SCENARIO_HEADERS, r.scenarios.map(scenarioRow)),
      '',
    );
  const l1 = r.runs.filter((x) => x.kind === 'L1');
  if (l1.length > 0) {
    out.push(
      'L1: bare Fastify, the same body, one run (÷ L0: against the median L0 of the first scenario with that body)',
      table(
        [...RUN_HEADERS, '÷ L0'],
        l1.map((x) => {
          const l0 = r.scenarios.find((s) => s.body === x.body)?.summary.baselineRequestsPerSecond;
          return [...runRow(x), pct(ratio(x.result.requestsPerSecond, l0))];
        }),
      ),
      '',
    );
  }
  const latency = r.runs.filter((x) => x.kind === 'latency' || x.kind === 'N');
  if (latency.length > 0)
    out.push('Deep page against offset paging, 1 connection (p50 = the cost of one request)', table(RUN_HEADERS, latency.map(runRow)), '');

  const nav = r.navigation ?? [];
  if (nav.length > 0)
    out.push(
      'Navigation (issue 14), each interleaved with its reference on the same server: ratio = p50 ÷ reference p50, or ids/s ÷ reference ids/s (B1)',
      table(
        ['run', 'reference', 'req/s', 'ref req/s', 'p50 ms', 'ref p50 ms', 'ratio', 'pairs', 'target', ''],
        nav.map((n) => [
          `${n.id} ${n.title}`,
          n.reference,
          thousands(n.requestsPerSecond),
          thousands(n.referenceRequestsPerSecond),
          fixed(n.p50),
          fixed(n.referenceP50),
          times(n.ratio),
          `${times(n.ratioMin)}–${times(n.ratioMax)}`,
          `${n.measure === 'p50' ? '≤' : '≥'} ${n.target}×`,
          n.pass ? 'pass' : 'MISS',
        ]),
        2,
      ),
      '',
    );
  const im = d.imports;
  out.push(
    `Start-up: spawn to first answered request ${r.server.startMs.join(', ')} ms (median ${r.server.startMedianMs} ms); idle RSS ${r.server.idleRssMb} MB; graceful stop ${r.server.stopMs} ms`,
    `Import (timed ${d.importsMeasured}): snapshot of ${im.codes.toLocaleString('en-US')} codes ${(im.snapshotMs / 1000).toFixed(1)} s ` +
      `(${im.snapshotFiles.map((f) => `${f.system} ${f.rows} in ${(f.ms / 1000).toFixed(1)} s`).join(', ')}); ` +
      `re-import ${(im.reimportMs / 1000).toFixed(1)} s${im.deltaFiles > 0 ? `; ${im.deltaFiles} deltas ${(im.deltasMs / 1000).toFixed(1)} s` : ''}; importer peak RSS ${im.peakRssMb} MB`,
    '',
  );
  const targets = r.targets ?? [];
  if (targets.length > 0) {
    out.push(
      `Targets (issues 16, 6 and 14)${r.mode === 'quick' ? ' — quick data: not the scale the targets are set for; CI does not judge these' : ''}`,
      table(
        ['target', 'issue', 'wanted', 'measured', ''],
        targets.map((t) => [t.name, t.issue, t.target, t.measured, t.pass === null ? '—' : t.pass ? 'pass' : 'MISS']),
        1,
      ),
      '',
    );
  }
  const noisy = r.scenarios.filter((s) => s.summary.noisy);
  if (noisy.length > 0)
    out.push(
      `NOISY: the pairs of ${noisy.map((s) => s.id).join(', ')} disagree by more than ${DISAGREEMENT_LIMIT * 100} %: the machine was busy; re-run before comparing these ratios`,
      '',
    );
  if ((r.unexpected ?? []).length > 0) out.push(`UNEXPECTED: ${r.unexpected!.join('; ')}`, '');
  return `${out.join('\n')}\n`;
}
