package benchgo

// The CloudEvents-style envelope of the message-bus workload; D is the
// typed Message or a json.RawMessage holding it pre-serialized.

type Envelope[D any] struct {
	ID              string `json:"id"`
	Source          string `json:"source"`
	SpecVersion     string `json:"specversion"`
	Type            string `json:"type"`
	Time            string `json:"time"`
	DataContentType string `json:"datacontenttype"`
	Data            D      `json:"data"`
}

type Item struct {
	ID       uint64   `json:"id"`
	SKU      string   `json:"sku"`
	Name     string   `json:"name"`
	Price    float64  `json:"price"`
	Quantity uint32   `json:"quantity"`
	InStock  bool     `json:"in_stock"`
	Tags     []string `json:"tags"`
}

type Message struct {
	OrderID    string `json:"order_id"`
	CustomerID uint64 `json:"customer_id"`
	Items      []Item `json:"items"`
}

// EnvelopeSizes are the item counts of the messages.
var EnvelopeSizes = []int{1, 10, 100, 1000}
