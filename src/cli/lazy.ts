// Libraries that only some outputs need, loaded on first use (each its own chunk of the bundle).

export type Prompter = Pick<typeof import('@inquirer/prompts'), 'input' | 'password' | 'confirm' | 'select'>;

/** Libraries loaded on first use by the modules that need them. */
export const lazy = {
  chalk: () => import('chalk'),
  table: () => import('cli-table3'),
  conf: () => import('conf'),
  /** SheetJS, for `release import` of .xlsx and .xls (a CSV import never loads it). */
  xlsx: () => import('@e965/xlsx'),
};
