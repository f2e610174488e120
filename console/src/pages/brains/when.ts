/** A time as the Brains page shows it: minutes in UTC, the same for every operator reading it together (the exact instant is in the element's dateTime). */
export const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
