// Libraries that only some outputs need, loaded on first use (each its own chunk of the bundle).

type Inquirer = typeof import('@inquirer/prompts');
/** inquirer's prompts, but a confirmation that takes only y/yes/n/no or Enter (yes-no.ts). */
export type Prompter = Pick<Inquirer, 'input' | 'password' | 'select'> & {
  confirm(config: { message: string; default?: boolean }, context?: Parameters<Inquirer['input']>[1]): Promise<boolean>;
};

/** Libraries loaded on first use by the modules that need them. */
export const lazy = {
  chalk: () => import('chalk'),
  table: () => import('cli-table3'),
  conf: () => import('conf'),
  /** SheetJS, for `release import` of .xlsx and .xls (a CSV import never loads it). */
  xlsx: () => import('@e965/xlsx'),
};
