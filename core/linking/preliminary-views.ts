/**
 * The views of the database DexterSQL §3.2 Step 2 drafts a preliminary SQL over, one draft each:
 * the retrieved focus, the whole schema, and the whole schema with the column profiles of the
 * focused tables (the paper's three, `PRELIMINARY_VIEWS`). `profile-lines` is the third view with
 * each profile cut to one line: the same facts (format, cardinality, range, examples, meaning) at
 * about a quarter of the tokens, which a CPU pays for (issue 34).
 */
export type PreliminaryView = 'focused' | 'full' | 'profiles' | 'profile-lines';

/** The paper's three views: the default of the presets that draft preliminary SQLs. */
export const PRELIMINARY_VIEWS: PreliminaryView[] = ['focused', 'full', 'profiles'];

/** Every view `linking.preliminaryViews` accepts. */
export const PRELIMINARY_VIEW_NAMES: PreliminaryView[] = [...PRELIMINARY_VIEWS, 'profile-lines'];

/** How a trace names a view. */
export function describePreliminaryView(view: PreliminaryView): string {
  switch (view) {
    case 'focused':
      return 'preliminary focus';
    case 'full':
      return 'whole schema';
    case 'profiles':
      return 'schema with profiles';
    case 'profile-lines':
      return 'schema with one-line profiles';
  }
}
