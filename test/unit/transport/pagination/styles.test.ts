import { paginationOptions } from '../../../../nodes/SupportChat/descriptions/options';
import { OPTION_PATHS } from '../../../../nodes/SupportChat/transport/pagination/styles';

// The transport names the options its messages send a person to without reading the description
// (a lower layer): each path is the editor's name of the option of its key.
describe('the pagination options the messages name', () => {
	it.each(Object.entries(OPTION_PATHS))('%s is shown as %s', (name, shown) => {
		const option = paginationOptions.find((property) => property.name === name);
		expect(option && `Options → ${option.displayName}`).toBe(shown);
	});
});
