/** The few styles the human reporter uses; identity functions when color is off. */
export interface Palette {
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
}

const wrap = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** ANSI styles when `color` is true, plain text otherwise. */
export function palette(color: boolean): Palette {
  if (!color) return { red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
