/** Types of scripts/build.mjs for the TypeScript that imports it (the test runner's global setup). */
export declare const ROOT: string;
export declare const DIST: string;
export declare const ENTRY: string;
export declare function isStale(): boolean;
export declare function build(): Promise<void>;
