/**
 * Pairwise clustering quality: a pair of records is a true positive when both the prediction
 * and the truth put them together. Counted from cluster sizes and intersection sizes, not
 * from pairs, so it is linear in the number of records.
 */
export interface PairwiseScore {
  truePairs: number;
  predictedPairs: number;
  correctPairs: number;
  precision: number;
  recall: number;
  f1: number;
}

const pairs = (n: number): number => (n * (n - 1)) / 2;

export function pairwiseScore(predicted: readonly string[], truth: readonly string[]): PairwiseScore {
  if (predicted.length !== truth.length) throw new Error('one predicted and one true cluster per record');
  const predictedSizes = new Map<string, number>();
  const trueSizes = new Map<string, number>();
  const cells = new Map<string, number>();
  for (let i = 0; i < predicted.length; i++) {
    predictedSizes.set(predicted[i]!, (predictedSizes.get(predicted[i]!) ?? 0) + 1);
    trueSizes.set(truth[i]!, (trueSizes.get(truth[i]!) ?? 0) + 1);
    const cell = `${predicted[i]}\u0000${truth[i]}`;
    cells.set(cell, (cells.get(cell) ?? 0) + 1);
  }
  let predictedPairs = 0;
  let truePairs = 0;
  let correctPairs = 0;
  for (const n of predictedSizes.values()) predictedPairs += pairs(n);
  for (const n of trueSizes.values()) truePairs += pairs(n);
  for (const n of cells.values()) correctPairs += pairs(n);
  const precision = predictedPairs === 0 ? 1 : correctPairs / predictedPairs;
  const recall = truePairs === 0 ? 1 : correctPairs / truePairs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePairs, predictedPairs, correctPairs, precision, recall, f1 };
}
