/** The benchmark's verdicts and its table: what is printed and what goes to latest.json. */
import type { ImportTimings } from './import-data.ts';
import type { LoadResult } from './load.ts';

export interface RunRecord {
  /** '1'…'5b' for scenarios, 'L0:record', 'L1:page50', '5a@1', 'N-deep@1', … */
  id: string;
  kind: 'scenario' | 'L0' | 'L1' | 'latency' | 'N';
  title: string;
  body: string;
  /** Size of the precomputed body the baselines answer with (0: not a baseline pairing). */
  bodyBytes: number;
  expect: number;
  result: LoadResult;
}

export interface Target {
  name: string;
  target: string;
  measured: string;
  /** null: not measured in this run. */
  pass: boolean | null;
}

export interface ReportInput {
  mode: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; kernel: string; node: string };
  settings: { connections: number; warmupSeconds: number; durationSeconds: number; deepDepth: number };
  data: { params: { codes: number; changes: number; dates: number; seed: number }; reused: boolean; builtAt: string; imports: ImportTimings; importsMeasured: string };
  server: { startMs: number[]; startMedianMs: number; idleRssMb: number; stopMs: number };
  runs: RunRecord[];
  targets?: Target[];
  unexpected?: string[];
}

const ratio = (a: number, b: number | undefined) => (b === undefined || b === 0 ? null : a / b);

function find(runs: RunRecord[], id: string): RunRecord | undefined {
  return runs.find((r) => r.id === id);
}

export function baselineOf(runs: RunRecord[], run: RunRecord, kind: 'L0' | 'L1'): RunRecord | undefined {
  return find(runs, `${kind}:${run.body}`);
}

/** Responses with another status than expected, connection errors and timeouts. */
function unexpectedOf(run: RunRecord): string[] {
  const out: string[] = [];
  for (const [status, count] of Object.entries(run.result.statuses)) {
    if (Number(status) !== run.expect) out.push(`${run.id}: ${count} × HTTP ${status} (expected ${run.expect})`);
  }
  if (run.result.errors > 0) out.push(`${run.id}: ${run.result.errors} connection errors (${run.result.timeouts} timeouts)`);
  if (run.result.responses === 0) out.push(`${run.id}: no response at all`);
  return out;
}

export function evaluateTargets(r: ReportInput): { targets: Target[]; unexpected: string[] } {
  const runs = r.runs;
  const scenarios = runs.filter((x) => x.kind === 'scenario');
  const targets: Target[] = [];
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(0)} %`);
  const times = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)}×`);

  for (const [id, min] of [
    ['1', 0.6],
    ['2', 0.5],
  ] as const) {
    const run = find(runs, id);
    const base = run && baselineOf(runs, run, 'L0');
    const value = run && base ? ratio(run.result.requestsPerSecond, base.result.requestsPerSecond) : null;
    targets.push({
      name: `scenario ${id} throughput vs L0 (same body)`,
      target: `≥ ${min * 100} %`,
      measured: pct(value),
      pass: value === null ? null : value >= min,
    });
  }

  const first = find(runs, '5a');
  const deep = find(runs, '5b');
  const deepRatio = first && deep ? ratio(deep.result.p50, first.result.p50) : null;
  targets.push({
    name: `deep page (${r.settings.deepDepth} codes) p50 vs first page p50, ${first?.result.connections ?? '?'} connections`,
    target: '≤ 1.2×',
    measured: times(deepRatio),
    pass: deepRatio === null ? null : deepRatio <= 1.2,
  });
  const one = [find(runs, '5a@1'), find(runs, '5b@1')];
  const oneRatio = one[0] && one[1] ? ratio(one[1].result.p50, one[0].result.p50) : null;
  targets.push({ name: 'deep page p50 vs first page p50, 1 connection', target: '≤ 1.2×', measured: times(oneRatio), pass: oneRatio === null ? null : oneRatio <= 1.2 });
  const n = [find(runs, 'N-first@1'), find(runs, 'N-deep@1')];
  const nRatio = n[0] && n[1] ? ratio(n[1].result.p50, n[0].result.p50) : null;
  targets.push({ name: 'offset paging (N): deep p50 vs first p50, 1 connection', target: 'informative', measured: times(nRatio), pass: null });

  for (const run of scenarios) {
    const value = ratio(run.result.p99, run.result.p50);
    targets.push({ name: `scenario ${run.id} p99 vs p50`, target: '≤ 4×', measured: times(value), pass: value === null ? null : value <= 4 });
  }

  const unexpected = runs.flatMap(unexpectedOf);
  const scenarioErrors = scenarios.flatMap(unexpectedOf);
  targets.push({
    name: 'errors in the scenarios (non-2xx other than the 401s of scenario 4, connection errors)',
    target: '0',
    measured: String(scenarioErrors.length === 0 ? 0 : scenarioErrors.join('; ')),
    pass: scenarios.length === 0 ? null : scenarioErrors.length === 0,
  });

  const rss = scenarios.length === 0 ? null : Math.max(...scenarios.map((s) => s.result.serverRssMaxMb));
  targets.push({ name: `server RSS under load (${r.data.params.codes} codes)`, target: '≤ 200 MB', measured: rss === null ? 'n/a' : `${rss} MB`, pass: rss === null ? null : rss <= 200 });
  targets.push({
    name: `spawn to first answered request (median of ${r.server.startMs.length})`,
    target: '≤ 1 s',
    measured: `${r.server.startMedianMs} ms`,
    pass: r.server.startMedianMs <= 1000,
  });
  const im = r.data.imports;
  targets.push({ name: `import of the ${im.codes}-code snapshot`, target: '≤ 60 s', measured: `${(im.snapshotMs / 1000).toFixed(1)} s`, pass: im.snapshotMs <= 60_000 });
  targets.push({ name: 're-import of the same snapshot (no change)', target: '≤ 30 s', measured: `${(im.reimportMs / 1000).toFixed(1)} s`, pass: im.reimportMs <= 30_000 });
  return { targets, unexpected };
}

// ---------------------------------------------------------------------------

function table(headers: string[], rows: string[][], leftColumns = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const fixed = (x: number, digits = 2) => x.toFixed(digits);
const thousands = (x: number) => Math.round(x).toLocaleString('en-US');

function nonOk(run: RunRecord): string {
  const total = Object.entries(run.result.statuses).reduce((a, [status, n]) => a + (Number(status) >= 300 ? n : 0), 0);
  const unexpected = Object.entries(run.result.statuses).reduce((a, [status, n]) => a + (Number(status) !== run.expect ? n : 0), 0);
  return total === 0 ? '0' : unexpected === 0 ? `${thousands(total)} (expected)` : `${thousands(total)} (${thousands(unexpected)} unexpected)`;
}

function row(runs: RunRecord[], run: RunRecord, withRatios: boolean): string[] {
  const x = run.result;
  const cells = [
    `${run.id} ${run.title}`,
    String(x.connections),
    thousands(x.requestsPerSecond),
    fixed(x.p50),
    fixed(x.p99),
    `${fixed(x.p99 / (x.p50 || 1), 1)}×`,
    nonOk(run),
    String(x.errors),
    String(x.serverRssMaxMb),
    `${x.serverCpu}%/${x.clientCpu}%`,
    thousands(x.meanResponseBytes),
  ];
  if (withRatios) {
    for (const kind of ['L0', 'L1'] as const) {
      const base = baselineOf(runs, run, kind);
      cells.push(base ? `${fixed((x.requestsPerSecond / base.result.requestsPerSecond) * 100, 0)} %` : '—');
    }
  }
  return cells;
}

const HEADERS = ['run', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'p99/p50', 'non-2xx', 'errors', 'RSS MB', 'CPU srv/cli', 'B/resp'];

export function formatReport(r: ReportInput): string {
  const runs = r.runs;
  const out: string[] = [];
  const d = r.data;
  out.push(
    `Codebook benchmark (${r.mode}) — ${d.params.codes.toLocaleString('en-US')} codes, ${d.params.changes.toLocaleString('en-US')} changes, ${d.params.dates} dates (seed ${d.params.seed})`,
    `machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GB, Linux ${r.machine.kernel}, Node.js ${r.machine.node}`,
    `load: autocannon in the bench process, keep-alive, ${r.settings.connections} connections, ${r.settings.warmupSeconds} s warm-up, ${r.settings.durationSeconds} s measured; RSS is the max of the server process; CPU is % of one core (server/client)`,
    '',
  );
  const scenarios = runs.filter((x) => x.kind === 'scenario');
  if (scenarios.length > 0) out.push('Scenarios (throughput as a share of the baselines with the same body)', table([...HEADERS, '×L0', '×L1'], scenarios.map((s) => row(runs, s, true))), '');
  const baselines = runs.filter((x) => x.kind === 'L0' || x.kind === 'L1');
  if (baselines.length > 0) out.push('Baselines (precomputed body of the size of the scenario response)', table(HEADERS, baselines.map((s) => row(runs, s, false))), '');
  const latency = runs.filter((x) => x.kind === 'latency' || x.kind === 'N');
  if (latency.length > 0) out.push('Deep page against offset paging, 1 connection (p50 = the cost of one request)', table(HEADERS, latency.map((s) => row(runs, s, false))), '');

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
      `Targets (issue 6)${r.mode === 'quick' ? ' — quick data: not the scale the targets are set for; CI does not judge these' : ''}`,
      table(
        ['target', 'wanted', 'measured', ''],
        targets.map((t) => [t.name, t.target, t.measured, t.pass === null ? '—' : t.pass ? 'pass' : 'MISS']),
        1,
      ),
      '',
    );
  }
  if ((r.unexpected ?? []).length > 0) out.push(`UNEXPECTED: ${r.unexpected!.join('; ')}`, '');
  return `${out.join('\n')}\n`;
}
