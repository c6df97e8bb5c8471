/**
 * The colour-blind-safe palette of the charts: Okabe & Ito (2008), "Color Universal Design"
 * (the eight colours told apart under the common colour-vision deficiencies).
 */

/** Okabe–Ito colours by name. */
export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
} as const;

/** What the charts draw in which colour: ours filled blue, the paper's hollow vermillion. */
export const CHART_COLOURS = { ours: OKABE_ITO.blue, reference: OKABE_ITO.vermillion, band: '#E8E8E8', grid: '#D9D9D9', text: '#1A1A1A', muted: '#595959' } as const;
