/** The message every use of the crypto API throws with (its error's `code` is `E2EE_UNAVAILABLE`). */
export declare const E2EE_UNAVAILABLE: string;
