// The default site pages in English (docs/product/routes.md#legal-and-support-pages).
import type { SitePagesSeed } from "../types.ts";

export const en: SitePagesSeed = {
  terms: {
    title: "Terms of service",
    summary: "The rules for buying and using subscriptions at NOVA.",
    body: `These terms apply to everyone who creates an account at NOVA or buys a subscription here. By doing either, you accept them. If you do not agree, please do not use the shop.

## Your account
- You must be at least 18 years old, or have the consent of a parent or guardian.
- Keep your password to yourself and turn on two-factor sign-in in your settings. You are responsible for what happens in your account.
- One person, one account. Accounts may not be sold or shared.

## Subscriptions
- A subscription gives you access to the software for one game for the number of days you bought. The time starts when you pay; more days for an active subscription extend it.
- You can freeze a subscription for up to 30 days. After you unfreeze it, the next freeze is possible 7 days later.
- The software runs on one computer at a time.
- If the software for a game is unavailable for more than 24 hours because of an update or maintenance, we add the lost time to every active subscription of that game.

## Payment and balance
- Prices are shown before you pay. You pay through PayPal or from your balance.
- Money on your balance can be spent only at NOVA. It is not a bank deposit and earns no interest.
- Refunds follow our [refund policy](/refunds).

## Fair use
- Using the software may go against the rules of a game or of a game server. Check those rules before you play: the consequences of breaking them are yours.
- Do not resell, copy, decompile or share the software or your access to it.
- We may suspend an account that abuses the shop, for example one that files a chargeback for a purchase it has used.

## Liability
The software is provided as it is. We do our best to keep it working after every game update, but we cannot promise that it always will. Our liability is limited to what you paid for the subscription in question.

## Changes
We may change these terms. We will tell you by e-mail at least 14 days before a change that affects you; a subscription you already bought keeps the terms it was bought under.

## Contact
Questions about these terms: {support_email}, or see the [support page](/support).`,
  },
  privacy: {
    title: "Privacy policy",
    summary: "What we store about you, why, for how long, and how to get it or delete it.",
    body: `This policy explains what we store about you, why we need it and how long we keep it.

## What we store
- Your account: e-mail address, optional username, your password as a one-way hash, your language and mail preferences.
- Your purchases: subscriptions, balance, every transaction and the payment references PayPal gives us. We never see your card details.
- Security data: the address (IP) and browser of each session, and a random visitor id, to protect you from account theft and to stop abuse of the referral programme.
- Messages: the notifications and e-mails we send you.

## Why we need it
To run your account and subscriptions, to process payments and refunds, to keep accounts safe, and to meet our legal duties, such as keeping records of payments. We send news and offers only if you allow it in your settings and have confirmed your address.

## Who else sees it
- PayPal, to process your payments.
- Our e-mail provider, to deliver our mails.
We do not sell your data and do not share it for advertising.

## Cookies
Only the cookies the shop needs to work: your session (access_token), your language (locale), a visitor id (t), the last game you opened (game) and the code of a friend who invited you (referrer). No advertising or tracking cookies.

## How long we keep it
Account data is kept while your account exists. Payment records are kept as long as the law requires, even after you delete your account. Ended sessions are removed after a week, and the text of sent mails after an hour.

## Your rights
- Download everything we hold about you as a file: Settings → “Download my data”.
- Correct your e-mail address in your settings.
- Delete your account: Settings → “Delete account”. Your personal details are erased; payment records stay, without your name or address.
- Ask us anything about your data: {support_email}.`,
  },
  refunds: {
    title: "Refund policy",
    summary: "When we give money back, how to ask, and what happens to your days.",
    body: `You should pay only for time you can use. This page explains when we give money back and how.

## When you get a refund
- Within 48 hours of a purchase, if you have not started the software with that subscription yet.
- When the software does not work on a computer that meets the requirements, and our support could not fix it within 3 days.
- When you were charged twice for the same order.
Money on your balance that you have not spent can be refunded to the PayPal account it came from within 30 days of the top-up.

## When we add days instead
If a game's software is unavailable for more than 24 hours (the status “Detected” or “Maintenance” on its page), we add the lost time to every active subscription of that game. You do not need to ask.

## How to ask
Write to {support_email} or see the [support page](/support). Include the e-mail of your account and the order number from your receipt or your balance history. We answer within one business day.

## What happens after a refund
- The money goes back the way it came: to your PayPal account, or to your balance.
- The days you bought are taken off the subscription in proportion to the refund. Time you have already used is never taken away.
- A refunded top-up is taken from your balance first; if you already spent it, what it paid for is undone.

## Chargebacks
If you dispute a payment with PayPal or your bank instead of asking us, the account is suspended until the dispute is settled. Please talk to us first: it is quicker for everyone.`,
  },
  support: {
    title: "Support",
    summary: "Questions about a payment, your account or the software? We answer in your language.",
    body: `We answer every message within one business day, usually much sooner, in any of the shop's seven languages.

## Before you write
- A question about a payment: have the order number at hand. It is in your receipt and in your balance history.
- Cannot sign in: choose “Forgot your password?” on the sign-in page. If you lost the phone with your authenticator app, sign in with one of your recovery codes.
- The software does not start: check the status on the game's page first. If it says “Updating”, a new build is on its way.

## What to include
- The e-mail address of your account. Never send your password or codes: we will never ask for them.
- The game, and what you were doing when the problem appeared.
- A screenshot, if it helps.

Our [terms of service](/terms), [privacy policy](/privacy) and [refund policy](/refunds) answer many questions too.`,
  },
};
