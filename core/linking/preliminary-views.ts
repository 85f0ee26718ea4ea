/** DexterSQL §3.2 Step 2's three views of the database, one preliminary SQL each. */
export type PreliminaryView = 'focused' | 'full' | 'profiles';
export const PRELIMINARY_VIEWS: PreliminaryView[] = ['focused', 'full', 'profiles'];
