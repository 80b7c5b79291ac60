package benchgo

import "time"

// The SDK records: SIMPLE (ten scalars) and COMPLEX (nested records, lists,
// maps, time.Time, []byte as base64), as the Rust `sdk` workload.

type Simple struct {
	ID           uint64  `json:"id"`
	Name         string  `json:"name"`
	Email        string  `json:"email"`
	Age          uint32  `json:"age"`
	Active       bool    `json:"active"`
	Score        float64 `json:"score"`
	BalanceCents int64   `json:"balance_cents"`
	Country      string  `json:"country"`
	CreatedUnix  int64   `json:"created_unix"`
	Status       string  `json:"status"`
}

type Line struct {
	SKU        string            `json:"sku"`
	Quantity   uint32            `json:"quantity"`
	UnitPrice  float64           `json:"unit_price"`
	Attributes map[string]string `json:"attributes"`
}

type TrackingEvent struct {
	At       time.Time `json:"at"`
	Code     string    `json:"code"`
	Location string    `json:"location"`
}

type Shipment struct {
	Carrier        string          `json:"carrier"`
	TrackingNumber string          `json:"tracking_number"`
	ShippedAt      time.Time       `json:"shipped_at"`
	DeliveredAt    *time.Time      `json:"delivered_at"`
	Events         []TrackingEvent `json:"events"`
}

type Attachment struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
}

type Complex struct {
	ID          string            `json:"id"`
	CreatedAt   time.Time         `json:"created_at"`
	UpdatedAt   *time.Time        `json:"updated_at"`
	Owner       Simple            `json:"owner"`
	Lines       []Line            `json:"lines"`
	Shipments   []Shipment        `json:"shipments"`
	Metadata    map[string]string `json:"metadata"`
	Counters    map[string]int64  `json:"counters"`
	Signature   []byte            `json:"signature"`
	Attachments []Attachment      `json:"attachments"`
	Tags        []string          `json:"tags"`
	Total       float64           `json:"total"`
}
