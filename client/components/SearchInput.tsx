import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { SEARCH_DEBOUNCE_MS } from '../../shared/constants/business';
import { LABELS } from '../../shared/constants/labels';

/** Removes every 'ñ'/'Ñ' and the leading spaces (reference §5). */
export function cleanSearchText(text: string): string {
  return text.replace(/[ñÑ]/g, '').replace(/^\s+/, '');
}

export interface SearchInputProps {
  /** Called with the cleaned text once the user has stopped typing for 500 ms. */
  onSearch: (value: string) => void;
  ariaLabel: string;
  placeholder?: string;
  initialValue?: string;
  className?: string;
  /** The input's id (for a visible `<label htmlFor>`). */
  id?: string;
}

/**
 * The text search input: cleans what is typed as it is typed and reports it after
 * SEARCH_DEBOUNCE_MS without typing. A value equal to the last one reported is not reported again.
 */
export function SearchInput({ onSearch, ariaLabel, placeholder = LABELS.search, initialValue = '', className, id }: SearchInputProps) {
  const [value, setValue] = useState(() => cleanSearchText(initialValue));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reported = useRef(value);
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  }, [onSearch]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = cleanSearchText(event.target.value);
    setValue(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (next === reported.current) return;
      reported.current = next;
      onSearchRef.current(next);
    }, SEARCH_DEBOUNCE_MS);
  };

  return (
    <InputGroup className={className}>
      <InputGroup.Text aria-hidden="true">
        <i className="bi bi-search" />
      </InputGroup.Text>
      <Form.Control id={id} type="search" value={value} onChange={handleChange} placeholder={placeholder} aria-label={ariaLabel} autoComplete="off" />
    </InputGroup>
  );
}
