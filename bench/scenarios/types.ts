/** The contract every bench scenario module implements (bench/scenarios/index.ts lists them). */

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  /** What the value is compared with, e.g. "bare node:http + pg handler". */
  baseline?: string;
  baselineValue?: number;
  /** value / baselineValue, oriented so that higher is better for throughputs (rps, tps). */
  ratio?: number;
  /** The target for this figure, in words ("ratio >= 0.8", "p95 <= 20 ms"). */
  target?: string;
}

export interface ScenarioResult {
  scenario: string;
  figures: BenchFigure[];
  notes: string[];
}

export interface ScenarioOptions {
  /** Seconds-long run on tiny data, for CI: figures are printed, nothing is asserted. */
  smoke: boolean;
  /** A real server (BURROW_TEST_DATABASE_URL); null runs on the embedded database. */
  databaseUrl: string | null;
  /** Machine-readable output: progress goes to stderr so stdout stays one JSON document. */
  json: boolean;
}

export type Scenario = (options: ScenarioOptions) => Promise<ScenarioResult>;
