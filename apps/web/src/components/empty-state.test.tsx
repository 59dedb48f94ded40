import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { EmptyState } from './empty-state.tsx';

describe('EmptyState', () => {
  it("shows the spec's empty list text", () => {
    renderWithProviders(<EmptyState />);
    expect(screen.getByText('There are no results matching your criteria.')).toBeTruthy();
  });

  it('shows a custom text', () => {
    renderWithProviders(<EmptyState text="No attachments" />);
    expect(screen.getByText('No attachments')).toBeTruthy();
  });
});
