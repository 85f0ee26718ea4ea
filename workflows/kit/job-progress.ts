import { setCurrentDetails, setHandler, type QueryDefinition } from '@temporalio/workflow';

/**
 * The one way a long job (preparation, mining, knowledge, benchmark) shows how far it is: a
 * progress record that its query answers, rendered into the run's current details (the line the
 * Web UI shows for a running workflow) each time it changes.
 */
export class JobProgress<P extends object> {
  readonly state: P;

  constructor(
    query: QueryDefinition<P>,
    initial: P,
    private readonly render: (progress: Readonly<P>) => string,
  ) {
    this.state = { ...initial };
    setHandler(query, () => ({ ...this.state }));
  }

  /** Changes the record and shows it. */
  update(patch: Partial<P>): void {
    Object.assign(this.state, patch);
    this.show();
  }

  /** Shows the record as it is (after changes made to `state` directly). */
  show(): void {
    setCurrentDetails(this.render(this.state));
  }
}
