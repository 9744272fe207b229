import { hasIdentity, pageDigest, SeenIds } from './values';

/**
 * What a list has served: its records by identity, and by whole content the pages holding records
 * without one (a page whose records all have ids is told by them, so only those need hashing).
 */
export class Seen {
	private readonly ids = new SeenIds();

	private readonly pages = new Set<string>();

	/**
	 * Notes a page: its records not served before, or undefined for a page served before whole. A page
	 * whose records all have ids is told by them; one with a record without an id also by its whole
	 * content. One pass, one identity per record: a long list notes tens of thousands. Noting the ids of
	 * a page that turns out to be a repeat changes nothing, since they were noted when it came first.
	 */
	take(items: unknown[]): unknown[] | undefined {
		const fresh: unknown[] = [];
		let unidentified = false;
		for (const item of items) {
			const added = this.ids.add(item);
			if (added === undefined) unidentified = true;
			if (added !== false) fresh.push(item);
		}
		if (!unidentified) return fresh;
		const digest = pageDigest(items);
		if (this.pages.has(digest)) return undefined;
		this.pages.add(digest);
		return fresh;
	}

	/** Whether a page adds nothing to what was served, without noting it. */
	addsNothing(items: unknown[]): boolean {
		return items.every(hasIdentity)
			? items.every((item) => this.ids.has(item))
			: this.pages.has(pageDigest(items));
	}
}
