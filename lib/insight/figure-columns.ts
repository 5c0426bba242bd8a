/** A figure rounded to 4 decimals for the CSV and JSON tables (null stays null). */
export const r4 = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 10_000) / 10_000);

interface Figure {
  ci?: readonly [number, number] | null;
  n: number;
}

/**
 * A figure's four columns, named one way: `<measure><Value>`, `<measure>Low`, `<measure>High`,
 * `<measure>N` (e.g. verifierPassRate, verifierPassLow, verifierPassHigh, verifierPassN).
 */
export function figureColumns<M extends string, V extends string = 'Rate'>(
  measure: M,
  value: number | null | undefined,
  figure: Figure,
  valueName: V = 'Rate' as V,
) {
  return {
    [`${measure}${valueName}`]: r4(value),
    [`${measure}Low`]: r4(figure.ci?.[0]),
    [`${measure}High`]: r4(figure.ci?.[1]),
    [`${measure}N`]: figure.n,
  } as Record<`${M}${V}` | `${M}Low` | `${M}High`, number | null> & Record<`${M}N`, number>;
}
