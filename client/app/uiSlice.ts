import { createSlice } from '@reduxjs/toolkit';

export interface UiState {
  /** The sidebar shows icons only. */
  menuCollapsed: boolean;
}

const initialState: UiState = { menuCollapsed: false };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    toggleMenu(state) {
      state.menuCollapsed = !state.menuCollapsed;
    },
  },
});

export const { toggleMenu } = uiSlice.actions;
