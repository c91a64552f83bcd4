/**
 * A small physical model of an off-grid PV mini-grid, advanced in fixed steps, deterministic for a
 * given seed:
 *
 * - irradiance follows the sun (local solar time at the site's longitude, equinox day length)
 *   under slowly drifting clouds; PV power = irradiance × array size × derating, plus noise;
 * - the load has a base, a morning and an evening peak, plus noise;
 * - the battery integrates PV − load (+ genset charging) into its state of charge, with its
 *   voltage and current following; the inverter stops at very low charge;
 * - the genset starts below `gensetStartSoc` and runs until `gensetStopSoc`;
 * - energy counters (PV yield, inverter output) only go up.
 *
 * `sample()` returns one value per known parameter id (pv_power, battery_soc, …); the simulator
 * sends those its devices log.
 */
export interface PlantOptions {
  seed: number;
  /** Site longitude (° east), for local solar time. */
  longitude: number;
  pvPeakWatts: number;
  batteryWh: number;
  baseLoadWatts: number;
  gensetWatts: number;
  gensetStartSoc: number;
  gensetStopSoc: number;
  initialSoc: number;
}

export const DEFAULT_PLANT: PlantOptions = {
  seed: 1,
  longitude: 36.82,
  pvPeakWatts: 6000,
  batteryWh: 19_200,
  baseLoadWatts: 450,
  gensetWatts: 5000,
  gensetStartSoc: 25,
  gensetStopSoc: 60,
  initialSoc: 65,
};

/** mulberry32: a tiny seeded PRNG (reproducible runs). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (n: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export class PlantModel {
  private readonly random: () => number;
  private soc: number;
  private clouds = 0.85;
  private gensetOn = false;
  private pvKwh = 0;
  private outKwh = 0;
  private last?: number;
  private current: Record<string, number> = {};

  constructor(readonly options: PlantOptions = DEFAULT_PLANT) {
    this.random = prng(options.seed);
    this.soc = options.initialSoc;
    // Counters start somewhere plausible for an installed system.
    this.pvKwh = 1000 + this.random() * 5000;
    this.outKwh = this.pvKwh * 0.8;
  }

  private noise(scale: number): number {
    // Sum of uniforms ≈ normal.
    return (this.random() + this.random() + this.random() - 1.5) * scale;
  }

  /** Sun elevation factor 0…1 at `t` (local solar time from the longitude). */
  irradiance(t: number): number {
    const solarHours = (((t / 3_600_000 + this.options.longitude / 15) % 24) + 24) % 24;
    const x = (solarHours - 6) / 12;
    if (x <= 0 || x >= 1) return 0;
    return Math.sin(Math.PI * x) ** 1.3;
  }

  private loadWatts(t: number): number {
    const h = (((t / 3_600_000 + this.options.longitude / 15) % 24) + 24) % 24;
    const morning = Math.exp(-((h - 7) ** 2) / 2) * 600;
    const evening = Math.exp(-((h - 20) ** 2) / 3) * 1800;
    return Math.max(80, this.options.baseLoadWatts + morning + evening + this.noise(120));
  }

  /** Advances the model to `t` (ms) and returns the values of that instant. */
  step(t: number): Record<string, number> {
    const dtHours = this.last === undefined ? 0 : Math.max(0, (t - this.last) / 3_600_000);
    this.last = t;
    this.clouds = Math.min(1, Math.max(0.25, this.clouds + this.noise(0.08 * Math.sqrt(Math.max(dtHours * 60, 1)))));
    const pv = Math.max(0, this.irradiance(t) * this.options.pvPeakWatts * 0.85 * this.clouds + (this.irradiance(t) > 0 ? this.noise(40) : 0));
    const inverterOn = this.soc > 3 || this.gensetOn;
    const load = inverterOn ? this.loadWatts(t) : 0;
    if (!this.gensetOn && this.soc < this.options.gensetStartSoc) this.gensetOn = true;
    else if (this.gensetOn && this.soc >= this.options.gensetStopSoc) this.gensetOn = false;
    const genset = this.gensetOn ? Math.min(this.options.gensetWatts, load + this.options.gensetWatts * 0.6) + this.noise(50) : 0;
    const batteryWatts = pv + genset - load;
    this.soc = Math.min(100, Math.max(0, this.soc + ((batteryWatts * dtHours) / this.options.batteryWh) * 100));
    if (this.soc >= 100 && batteryWatts > 0) this.soc = 100;
    const voltage = 46 + 7.5 * (this.soc / 100) + batteryWatts / 4000 + this.noise(0.05);
    this.pvKwh += (pv * dtHours) / 1000;
    this.outKwh += (load * dtHours) / 1000;
    const hour = (((t / 3_600_000 + this.options.longitude / 15) % 24) + 24) % 24;
    this.current = {
      pv_power: round(pv, 1),
      ac_output_power: round(load, 1),
      battery_soc: round(this.soc, 2),
      battery_voltage: round(voltage, 3),
      battery_current: round(batteryWatts / voltage, 2),
      battery_temperature: round(24 + 4 * Math.sin((Math.PI * (hour - 9)) / 12) + Math.abs(batteryWatts) / 2000 + this.noise(0.2), 2),
      genset_running: this.gensetOn ? 1 : 0,
      genset_power: round(Math.max(0, genset), 1),
      energy_total: round(this.outKwh, 3),
      inverter_state: !inverterOn ? 0 : this.gensetOn ? 3 : 9,
      pv_energy_total: round(this.pvKwh, 3),
    };
    return this.current;
  }

  /** A value for a parameter the model does not know: a stable pseudo-random walk. */
  fallback(parameter_id: string, t: number): number {
    let h = 0;
    for (let i = 0; i < parameter_id.length; i++) h = (Math.imul(h, 31) + parameter_id.charCodeAt(i)) | 0;
    return round(50 + 20 * Math.sin(t / 3_600_000 + (h % 100)), 3);
  }
}
