import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LANE_ORDER } from './lanes.js';

/**
 * Vitest's order within a lane (failed, then longest, from its cache; on a fresh clone, largest file
 * first), with the lanes in LANE_ORDER: otherwise the projects go by name and a fresh clone started its
 * longest files (a build, a crash test) last, with one worker idle while they ran.
 */
export default class LanesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => LANE_ORDER.indexOf(spec.project.name);
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
