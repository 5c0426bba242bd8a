import type { ReactNode } from 'react';

/** One choice of a select: its submitted value and what it shows. */
export type Option = { value: string; label: ReactNode };

/** A select's options, in order (each keyed by its value). */
export function Options({ options }: { options: readonly Option[] }) {
  return (
    <>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}
