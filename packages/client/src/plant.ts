// Runs wherever the client runs: types only.
/**
 * A plant to create, as the contract's NewPlant. `id` is an int64: a `bigint`
 * anywhere in -9223372036854775808..9223372036854775807, or a `number` that is
 * a safe integer (|id| ≤ 2^53 − 1), since a larger `number` has already lost
 * digits and would create another plant than the one meant.
 */
export interface NewPlant {
  readonly id: bigint | number;
  readonly name: string;
  readonly tag?: string | undefined;
}

/**
 * The plant the server stored, as its 200 answer: `name`, and `tag` when the
 * plant has one, equal to those sent (the client checks). The id is never part
 * of the answer. A fresh plain object: fields a server adds are dropped.
 */
export interface Plant {
  readonly name: string;
  readonly tag?: string;
}
