/**
 * Named fault points. Production passes none; tests pass one that throws at a chosen point to
 * prove a transaction leaves nothing behind when any part of it fails.
 */
export type FaultInjector = (point: string) => void;

export const noFaults: FaultInjector = () => {};

export class InjectedFault extends Error {
  constructor(readonly point: string) {
    super(`injected fault at ${point}`);
  }
}
