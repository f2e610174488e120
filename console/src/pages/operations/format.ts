/** Dates as the console shows them: "2026-12-04 23:41:07" (UTC). */
export const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);
