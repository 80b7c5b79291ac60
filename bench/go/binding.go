package benchgo

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// The request body bound by an HTTP handler (the Rust `CreateOrder`).

type Customer struct {
	ID            uint64  `json:"id"`
	Name          string  `json:"name"`
	Email         string  `json:"email"`
	Phone         *string `json:"phone"`
	LoyaltyMember bool    `json:"loyalty_member"`
}

type Address struct {
	Line1      string  `json:"line1"`
	Line2      *string `json:"line2"`
	City       string  `json:"city"`
	Region     string  `json:"region"`
	PostalCode string  `json:"postal_code"`
	Country    string  `json:"country"`
}

type LineItem struct {
	SKU             string  `json:"sku"`
	Name            string  `json:"name"`
	Quantity        uint32  `json:"quantity"`
	UnitPrice       float64 `json:"unit_price"`
	DiscountPercent float64 `json:"discount_percent"`
}

type CreateOrder struct {
	RequestID       string     `json:"request_id"`
	Customer        Customer   `json:"customer"`
	ShippingAddress Address    `json:"shipping_address"`
	Items           []LineItem `json:"items"`
	Currency        string     `json:"currency"`
	CouponCode      *string    `json:"coupon_code"`
	Gift            bool       `json:"gift"`
	Notes           string     `json:"notes"`
	Tags            []string   `json:"tags"`
	IdempotencyKey  string     `json:"idempotency_key"`
}

// Limit is the binder's body limit; OversizeLen the oversized body's length
// (both as in the Rust workload).
const (
	Limit       = 16 * 1024
	OversizeLen = 1 << 20
)

var errTooLarge = errors.New("body over the size limit")

// bindBytes binds an in-memory body: a length check, then json.Unmarshal,
// which refuses trailing data after the value.
func bindBytes(body []byte, into *CreateOrder) error {
	if len(body) > Limit {
		return errTooLarge
	}
	return json.Unmarshal(body, into)
}

// bindReader binds a streamed body: at most Limit+1 bytes are read, as the
// Rust peers do, and a longer body is refused without reading the rest.
func bindReader(r io.Reader, into *CreateOrder) error {
	body, err := io.ReadAll(io.LimitReader(r, Limit+1))
	if err != nil {
		return err
	}
	return bindBytes(body, into)
}

// trailingBody is the body followed by a second value.
func trailingBody(body []byte) []byte {
	return append(append([]byte{}, body...), ` {"smuggled":true}`...)
}

// oversizeBody is `{"notes":"xxx…"}`, OversizeLen bytes long.
func oversizeBody() []byte {
	b := []byte(`{"notes":"`)
	b = append(b, bytes.Repeat([]byte{'x'}, OversizeLen-2-len(b))...)
	return append(b, `"}`...)
}
