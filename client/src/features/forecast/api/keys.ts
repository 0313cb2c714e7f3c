/** The key every forecast query starts with (the screen's figures, the targets dialog's); saving targets invalidates it. */
export const forecastQueryKey = ['/api/forecast'] as const;
