/**
 * The level of a member with `xp` xp: 1 + floor(sqrt(xp / 50)), the curve of the demo seed
 * (level 2 at 50 xp, 3 at 200, 4 at 450). The contract does not give the platform's curve.
 */
export function levelForXp(xp: number): number {
  return 1 + Math.floor(Math.sqrt(Math.max(0, xp) / 50));
}
