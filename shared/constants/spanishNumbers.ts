/** Numbers in the portal's Spanish texts (es-MX: 1,038), for every label module. */

/** A number as the pages write it: 1,038. */
export const count = (n: number) => n.toLocaleString('es-MX');

/** The word for `n` things: `one` for 1, `many` otherwise. */
export const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** The number and its word: '1 dispositivo', '1,038 dispositivos'. */
export const counted = (n: number, one: string, many: string) => `${count(n)} ${plural(n, one, many)}`;
