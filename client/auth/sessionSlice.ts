import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface SessionState {
  /** `checking` until the browser has looked at the stored session (and on the server). */
  status: 'checking' | 'signedIn' | 'signedOut';
  email?: string;
  username?: string;
}

const initialState: SessionState = { status: 'checking' };

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    signedIn(_state, action: PayloadAction<{ email: string; username: string }>) {
      return { status: 'signedIn', ...action.payload };
    },
    signedOut() {
      return { status: 'signedOut' };
    },
  },
});

export const { signedIn, signedOut } = sessionSlice.actions;
