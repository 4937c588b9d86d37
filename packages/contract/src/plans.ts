/** Credit allowances per account channel. Numbers are product decisions recorded in docs/decisions. */
export type Allowance = {
  dailyCredit: number;
  basicCredit: number;
  advanceCredit: number;
  extraAdvanceCredit: number;
};

export const FREE_ALLOWANCE: Allowance = { dailyCredit: 3, basicCredit: 30, advanceCredit: 5, extraAdvanceCredit: 0 };
export const EARLY_BIRD_ALLOWANCE: Allowance = {
  dailyCredit: 10,
  basicCredit: 300,
  advanceCredit: 50,
  extraAdvanceCredit: 10,
};
export const APP_DEAL_ALLOWANCE: Allowance = {
  dailyCredit: 20,
  basicCredit: 1000,
  advanceCredit: 200,
  extraAdvanceCredit: 50,
};

/** Free tier: 3 a day for the gated features (spec §6, §9). */
export const FREE_DAILY_GATED_USES = 3;
