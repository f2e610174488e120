/** What every bench scenario returns: figures (with their baseline and target where there is one) and notes. */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  baseline?: string;
  baselineValue?: number;
  ratio?: number;
  target?: string;
}

export interface ScenarioResult {
  scenario: string;
  figures: BenchFigure[];
  notes: string[];
}

export interface ScenarioOptions {
  /** A seconds-long run with a few subscribers and no targets (CI). */
  smoke: boolean;
  databaseUrl: string | null;
  json: boolean;
}
